// The translation unit the shared precompiled header (cmake/precompiled.cmake) is built with.
