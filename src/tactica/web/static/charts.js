/* tactica charts: bar and line charts drawn as inline SVG, no libraries.
 *
 * Every bar and point carries its exact value in data attributes (data-x, data-p,
 * data-series) and a <title>; a table of the values follows each chart, so the numbers
 * can be read on a phone (no hover) and by tests. */
(function (global) {
  "use strict";

  const NS = "http://www.w3.org/2000/svg";
  const COLORS = ["#2563eb", "#d97706", "#059669", "#c026d3"];
  let W = 640;  // set per chart from its box, so that text is drawn at its real size
  const H = 260;
  const M = { left: 46, right: 12, top: 18, bottom: 36 };
  /* Bars and points below this probability are not drawn past the last visible one. */
  const VISIBLE = 0.0005;

  function pct(p) {
    if (p > 0 && p < 0.0005) return "<0.1%";
    if (p < 1 && p > 0.9995) return ">99.9%";
    return (100 * p).toFixed(1) + "%";
  }

  /* A bar's label where bars are narrow: whole percents. */
  function shortPct(p) {
    if (p > 0 && p < 0.005) return "<1%";
    if (p < 1 && p > 0.995) return ">99%";
    return Math.round(100 * p) + "%";
  }
  /* Labels left to right, each drawn only where it does not touch the one before (11 px
   * text: about 6.4 px a character), so that every bar a label fits over has one. */
  function labeller() {
    let right = -Infinity;
    return (x, text) => {
      const half = (text.length * 6.4) / 2;
      if (x - half < right + 3) return false;
      right = x + half;
      return true;
    };
  }

  /* P(value >= n) for every n, summed left to right as Python's sum(pmf[n:]) does. */
  function atLeast(pmf, upTo) {
    const out = [];
    const last = Math.max(upTo === undefined ? pmf.length - 1 : upTo, 0);
    for (let n = 0; n <= last; n++) {
      let total = 0;
      for (let i = n; i < pmf.length; i++) total += pmf[i];
      out.push(total);
    }
    return out;
  }

  function el(name, attrs, parent, text) {
    const node = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    if (parent) parent.appendChild(node);
    return node;
  }

  function lastVisible(series, from) {
    let last = from;
    for (const s of series) {
      s.values.forEach((p, i) => { if (p >= VISIBLE && i > last) last = i; });
    }
    return last;
  }

  function frame(box, label) {
    box.textContent = "";
    W = Math.round(Math.max(300, Math.min(760, box.clientWidth || 640)));
    const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": label,
                            class: "chart-svg", preserveAspectRatio: "xMidYMid meet" }, box);
    return svg;
  }

  function yAxis(svg, top) {
    const plotH = H - M.top - M.bottom;
    const steps = 4;
    for (let i = 0; i <= steps; i++) {
      const v = (top * i) / steps;
      const y = M.top + plotH - (plotH * i) / steps;
      el("line", { x1: M.left, x2: W - M.right, y1: y, y2: y, class: "grid" }, svg);
      el("text", { x: M.left - 6, y: y + 4, class: "tick", "text-anchor": "end" }, svg,
         Math.round(v * 1000) / 10 + "%");
    }
  }

  function xLabel(svg, text) {
    el("text", { x: M.left + (W - M.left - M.right) / 2, y: H - 4, class: "axis-label",
                 "text-anchor": "middle" }, svg, text);
  }

  function niceTop(maxP) {
    const step = maxP > 0.5 ? 0.25 : maxP > 0.2 ? 0.1 : maxP > 0.08 ? 0.04 : 0.02;
    return Math.min(1, Math.max(step, Math.ceil(maxP / step) * step));
  }

  function legend(box, series) {
    if (series.length < 2) return;
    const ul = document.createElement("ul");
    ul.className = "legend";
    series.forEach((s, k) => {
      const li = document.createElement("li");
      const sw = document.createElement("span");
      sw.className = "swatch s" + k;
      li.appendChild(sw);
      li.appendChild(document.createTextNode(s.label));
      ul.appendChild(li);
    });
    box.appendChild(ul);
  }

  function valuesTable(box, series, xs, opts) {
    const details = document.createElement("details");
    details.className = "values";
    if (opts.open) details.open = true;
    const summary = document.createElement("summary");
    summary.textContent = "Values";
    details.appendChild(summary);
    const wrap = document.createElement("div");
    wrap.className = "scroll";
    const table = document.createElement("table");
    table.className = "table values-table";
    const head = table.createTHead().insertRow();
    const th = document.createElement("th");
    th.textContent = opts.xTitle;
    head.appendChild(th);
    for (const s of series) {
      const h = document.createElement("th");
      h.textContent = series.length > 1 ? s.label : opts.yTitle;
      head.appendChild(h);
    }
    const body = table.createTBody();
    for (const x of xs) {
      const row = body.insertRow();
      row.dataset.x = x;
      row.insertCell().textContent = opts.xText ? opts.xText(x) : x;
      series.forEach((s, k) => {
        const cell = row.insertCell();
        const p = x < s.values.length ? s.values[x] : 0;
        cell.textContent = pct(p);
        cell.dataset.p = String(p);
        cell.dataset.series = String(k);
      });
    }
    wrap.appendChild(table);
    details.appendChild(wrap);
    box.appendChild(details);
  }

  /* Grouped bars: series = [{label, values: [p0, p1, ...]}], x = index. */
  function barChart(box, series, opts) {
    const svg = frame(box, opts.title);
    const n = lastVisible(series, opts.minX || 0) + 1;
    const maxP = Math.max(...series.flatMap((s) => s.values.slice(0, n)), 0);
    const top = niceTop(maxP);
    yAxis(svg, top);
    const plotW = W - M.left - M.right;
    const plotH = H - M.top - M.bottom;
    const slot = plotW / n;
    const barW = Math.max(1, (slot * 0.8) / series.length);
    const labelEvery = Math.ceil(26 / slot);
    const showValues = series.length === 1;
    const valueText = slot >= 36 ? pct : shortPct;
    const fits = labeller();
    for (let x = 0; x < n; x++) {
      series.forEach((s, k) => {
        const p = x < s.values.length ? s.values[x] : 0;
        const h = (plotH * p) / top;
        const bx = M.left + x * slot + slot * 0.1 + k * barW;
        const rect = el("rect", { x: bx, y: M.top + plotH - h, width: barW, height: h,
                                  class: "bar s" + k, "data-x": x, "data-p": p,
                                  "data-series": k }, svg);
        el("title", {}, rect, `${s.label}: ${opts.xText ? opts.xText(x) : x} – ${pct(p)}`);
        const text = valueText(p);
        if (showValues && p >= VISIBLE && fits(bx + barW / 2, text)) {
          el("text", { x: bx + barW / 2, y: M.top + plotH - h - 4, class: "bar-value",
                       "text-anchor": "middle", "data-x": x }, svg, text);
        }
      });
      if (x % labelEvery === 0) {
        el("text", { x: M.left + x * slot + slot / 2, y: M.top + plotH + 16, class: "tick",
                     "text-anchor": "middle" }, svg, String(x));
      }
    }
    xLabel(svg, opts.xTitle);
    legend(box, series);
    const xs = [];
    for (let x = 0; x < n; x++) xs.push(x);
    valuesTable(box, series, xs, opts);
  }

  /* Lines over x = from..to (default 1..last): series = [{label, values}] by index. */
  function lineChart(box, series, opts) {
    const svg = frame(box, opts.title);
    const from = opts.from === undefined ? 1 : opts.from;
    const to = Math.max(opts.to === undefined ? lastVisible(series, from) : opts.to, from);
    yAxis(svg, 1);
    const plotW = W - M.left - M.right;
    const plotH = H - M.top - M.bottom;
    const span = Math.max(to - from, 1);
    const px = (x) => M.left + 14 + ((plotW - 28) * (x - from)) / span;
    const py = (p) => M.top + plotH - plotH * p;
    const step = (plotW - 28) / span;
    const labelEvery = Math.ceil(26 / step);
    for (let x = from; x <= to; x++) {
      if ((x - from) % labelEvery === 0) {
        el("text", { x: px(x), y: M.top + plotH + 16, class: "tick", "text-anchor": "middle" },
           svg, String(x));
      }
    }
    const showValues = series.length === 1;
    const valueText = step >= 36 ? pct : shortPct;
    const fits = labeller();
    series.forEach((s, k) => {
      const pts = [];
      for (let x = from; x <= to; x++) {
        const p = x < s.values.length ? s.values[x] : 0;
        pts.push(`${px(x)},${py(p)}`);
      }
      el("polyline", { points: pts.join(" "), class: "line s" + k }, svg);
      for (let x = from; x <= to; x++) {
        const p = x < s.values.length ? s.values[x] : 0;
        const dot = el("circle", { cx: px(x), cy: py(p), r: 4, class: "dot s" + k,
                                   "data-x": x, "data-p": p, "data-series": k }, svg);
        el("title", {}, dot, `${s.label}: ${opts.xText ? opts.xText(x) : x} – ${pct(p)}`);
        const text = valueText(p);
        if (showValues && fits(px(x), text)) {
          el("text", { x: px(x), y: py(p) - 9, class: "bar-value", "text-anchor": "middle",
                       "data-x": x }, svg, text);
        }
      }
    });
    xLabel(svg, opts.xTitle);
    legend(box, series);
    const xs = [];
    for (let x = from; x <= to; x++) xs.push(x);
    valuesTable(box, series, xs, opts);
  }

  global.TacticaCharts = { atLeast, barChart, lineChart, pct, COLORS };
})(window);
