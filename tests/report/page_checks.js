// Runs inside the page (playwright's page.evaluate): measures what Chromium rendered and returns
// the problems it finds as strings. Used by html_browser_test.py.
(width) => {
  const problems = [];
  const box = (el) => el.getBoundingClientRect();
  const centre = (el) => { const b = box(el); return [b.x + b.width / 2, b.y + b.height / 2]; };
  const viewport = document.documentElement.clientWidth;
  if (document.documentElement.scrollWidth > viewport + 1)
    problems.push(`page wider than the window: ${document.documentElement.scrollWidth} > ${viewport}`);
  // At the full width every table fits; narrower, a wide table scrolls on its own.
  if (width >= 1280)
    for (const el of document.querySelectorAll('.wide'))
      if (el.scrollWidth > el.clientWidth + 1) problems.push(`a table is cut off (${el.scrollWidth} > ${el.clientWidth})`);
  // No word broken across lines ("RING/SIMPL|E", "REGRESSIO|N"): every word's text lies on one line.
  const broken = [];
  for (const el of document.querySelectorAll('td, th, h1, .machine, .rules, .finding b, .top-finding b, li')) {
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      for (const m of node.textContent.matchAll(/[^\s\/-]+[\/-]?/g)) {  // a break after / or - is a line break
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
        if (tops.size > 1) broken.push(`"${m[0]}" in ${el.tagName}`);
      }
  }
  if (width >= 1280) problems.push(...broken.slice(0, 10).map((b) => `a word broken across lines: ${b}`));
  for (const el of document.querySelectorAll('body *:not(svg *)')) {
    if (el.closest('.wide') && el.closest('.wide') !== el) continue;  // scrolls within its box
    const b = box(el);
    if (b.width > 0 && b.right > viewport + 1) problems.push(`${el.tagName}.${el.className} ends at ${b.right} > ${viewport}`);
  }
  for (const svg of document.querySelectorAll('svg')) {
    const s = box(svg);
    const texts = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim() !== '');
    const boxes = texts.map(box);
    boxes.forEach((b, i) => {
      if (b.left < s.left - 1 || b.right > s.right + 1 || b.top < s.top - 1 || b.bottom > s.bottom + 1)
        problems.push(`${svg.dataset.chart}: "${texts[i].textContent}" cut off by its chart`);
    });
    for (let i = 0; i < boxes.length; ++i)
      for (let j = i + 1; j < boxes.length; ++j) {
        const a = boxes[i], b = boxes[j];
        const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (w > 1 && h > 1)
          problems.push(`${svg.dataset.chart}: "${texts[i].textContent}" overlaps "${texts[j].textContent}"`);
      }
  }
  // Every point where its value says: x and y against the axis ticks' rendered positions.
  for (const svg of document.querySelectorAll('svg.chart[data-chart]')) {
    const yt = [...svg.querySelectorAll('text.ytick')], xt = [...svg.querySelectorAll('text.xtick')];
    if (yt.length < 2 || xt.length < 2) continue;
    const labels = yt.map((t) => t.textContent);
    if (new Set(labels).size !== labels.length) problems.push(`${svg.dataset.chart}: repeated y labels ${labels}`);
    const logx = xt.some((t) => /B$/.test(t.textContent));
    const fx = (v) => (logx ? Math.log2(v) : v);
    const y0 = +yt[0].dataset.value, y1 = +yt[yt.length - 1].dataset.value;
    const py0 = centre(yt[0])[1], py1 = centre(yt[yt.length - 1])[1];
    const x0 = fx(+xt[0].dataset.value), x1 = fx(+xt[xt.length - 1].dataset.value);
    const px0 = centre(xt[0])[0], px1 = centre(xt[xt.length - 1])[0];
    for (const c of svg.querySelectorAll('circle.point')) {
      const [cx, cy] = centre(c);
      const ey = py0 + ((+c.dataset.y - y0) / (y1 - y0)) * (py1 - py0);
      const ex = px0 + ((fx(+c.dataset.x) - x0) / (x1 - x0)) * (px1 - px0);
      if (Math.abs(cy - ey) > 1.5 || Math.abs(cx - ex) > 1.5)
        problems.push(`${svg.dataset.chart}: point (${c.dataset.x}, ${c.dataset.y}) drawn at (${cx}, ${cy}), expected (${ex}, ${ey})`);
    }
  }
  const charts = {};
  for (const svg of document.querySelectorAll('[data-chart]'))
    charts[svg.dataset.chart] = {
      series: svg.querySelectorAll('path.series').length,
      dashed: svg.querySelectorAll('path.series[stroke-dasharray]').length,
      points: svg.querySelectorAll('circle.point').length,
      regressions: svg.querySelectorAll('circle.regression').length,
      ceiling: svg.querySelectorAll('line.ceiling').length,
      expected: svg.querySelectorAll('line.expected').length,
      cells: svg.querySelectorAll('rect.cell').length,
      cellvalues: svg.querySelectorAll('text.cellvalue').length,
      gpus: svg.querySelectorAll('g.gpu').length,
      fabric_edges: svg.querySelectorAll('g.fabric-edge').length,
      switches: svg.querySelectorAll('g.switch').length,
      summary: svg.classList.contains('heatmap-summary'),
      bars: [...svg.querySelectorAll('g.bar')].map((g) => ({
        figure: g.dataset.figure,
        measured: +g.dataset.measured,
        expected: +g.dataset.expected,
        width: box(g.querySelector('rect')).width,
      })),
      min_font: Math.min(...[...svg.querySelectorAll('text')].map((t) => box(t).height).filter((h) => h > 0)),
    };
  const banner = document.querySelector('.banner');
  const text = (sel) => [...document.querySelectorAll(sel)];
  return {
    // Every figure the page shows, as the tests look for it: headline rows, pair rows, heatmap cells.
    headline_rows: text('table.headline tr[data-collective]').map((tr) => ({
      collective: tr.dataset.collective, busbw: +tr.dataset.busbw,
      expected: tr.dataset.expected === '' ? null : +tr.dataset.expected,
      floor: tr.dataset.floor === '' ? null : +tr.dataset.floor })),
    pair_rows: text('table.pair-figures tr[data-test]').map((tr) => [tr.dataset.test, tr.children[2].textContent, +tr.dataset.value]),
    cells: text('rect.cell[data-value]').filter((c) => c.dataset.value !== '').map((c) => [+c.dataset.src, +c.dataset.dst, +c.dataset.value]),
    severities: text('div.finding').map((d) => d.dataset.severity),
    rules: banner && banner.querySelector('.rules') ? banner.querySelector('.rules').dataset.rules : null,
    regressions_named: text('.banner li.regression-row').map((li) => li.textContent),
    problems,
    charts,
    outcome: banner ? banner.dataset.outcome : null,
    headline: banner ? banner.querySelector('h1').textContent : '',
    findings: document.querySelectorAll('div.finding').length,
    one_gpu_note: !!document.querySelector('.one-gpu'),
    host_cards: document.querySelectorAll('.host-card').length,
    verdict_status: (document.querySelector('section.verdict') || {dataset: {}}).dataset.status || null,
    one_gpu_next: !!document.querySelector('.one-gpu-next'),
    // "Each GPU on its own": figure, measured, expected as the table shows them.
    gpu_rows: [...document.querySelectorAll('table.gpu-local tr')].slice(1).map((tr) =>
      [...tr.querySelectorAll('td')].slice(0, 3).map((td) => td.textContent)),
  };
}
