/* tactica turn page: steps of a turn against one target, sent to /api/turn, and the
 * target's models left after each step drawn as a stacked bar chart (inline SVG).
 * A charge step brings its fight, as `tactica turn --step "UNIT:charge@7"` does: the
 * unit fights (having charged) if its charge is made; the fight is shown under it. */
(function () {
  "use strict";

  const $ = (id) => document.getElementById(id);
  const pct = window.TacticaCharts.pct;
  const NS = "http://www.w3.org/2000/svg";
  const steps = [];  // {unit, phase, distance, models, range, stationary, reroll, command, effects}
  let rawDoc = null;  // a whole sequence document opened from a link (#doc=...), sent as is

  function node(name, attrs, text) {
    const n = document.createElement(name);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function svgEl(name, attrs, parent, text) {
    const n = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    if (text !== undefined) n.textContent = text;
    if (parent) parent.appendChild(n);
    return n;
  }
  function status(text, bad) {
    $("turn-status").textContent = text;
    $("turn-status").classList.toggle("bad", !!bad);
  }
  function stepText(s) {
    const what = s.phase === "charge" ? `charges (${s.distance}")` : s.phase;
    const more = [];
    if (s.models) more.push(`${s.models} models`);
    if (s.range !== null && s.range !== undefined) more.push(`at ${s.range}"`);
    if (s.stationary) more.push("stationary");
    if (s.reroll) more.push("re-rolls the charge");
    if (s.command) more.push("Command Re-roll");
    if (s.effects && s.effects.length) more.push(s.effects.join(", "));
    return `${s.unit}: ${what}${more.map((m) => ` · ${m}`).join("")}`;
  }

  /* Whether step i is the fight a charge just before it brings (a linked document's). */
  function broughtFight(list, i) {
    const s = list[i], before = list[i - 1];
    return i > 0 && s.phase === "fight" && before.phase === "charge" && before.unit === s.unit;
  }
  function drawSteps() {
    const list = $("steps");
    list.replaceChildren();
    steps.forEach((s, i) => {
      if (broughtFight(steps, i)) return;  // shown under its charge
      const li = node("li", { class: "turn-step" });
      const text = node("span", { class: "step-text" }, stepText(s));
      li.appendChild(text);
      const rm = node("button", { type: "button", class: "remove", "aria-label": `remove step ${i + 1}` }, "Remove");
      rm.addEventListener("click", () => {
        steps.splice(i, broughtFight(steps, i + 1) ? 2 : 1);
        rawDoc = null;
        drawSteps();
      });
      li.appendChild(rm);
      if (s.phase === "charge" && (!rawDoc || broughtFight(steps, i + 1))) {
        li.appendChild(node("span", { class: "brought" },
          `then ${s.unit} fights, having charged, if the charge is made`));
      }
      list.appendChild(li);
    });
  }

  function addStep() {
    const unit = $("new-unit").value.trim();
    if (!unit) { status("Name the step's unit first.", true); return; }
    if (rawDoc) { steps.length = 0; rawDoc = null; }  // a new turn, not the linked document
    const phase = $("new-phase").value;
    if (phase === "fight" && steps.some((x) => x.phase === "charge" && x.unit === unit)) {
      status(`${unit}'s charge already brings its fight.`, true);
      return;
    }
    const models = parseInt($("new-models").value, 10) || null;
    const s = { unit, phase, models };
    if (phase === "charge") {
      s.distance = parseInt($("new-distance").value, 10) || 7;
      s.reroll = $("new-reroll").checked;
      s.command = $("new-command").checked;
      s.effects = $("new-effects").value.split(",").map((e) => e.trim()).filter(Boolean);
    } else {
      const range = parseInt($("new-range").value, 10);
      if (phase === "shooting" && !Number.isNaN(range)) s.range = range;
      if (phase === "shooting") s.stationary = $("new-stationary").checked;
      s.effects = $("new-effects").value.split(",").map((e) => e.trim()).filter(Boolean);
    }
    steps.push(s);
    rawDoc = null;
    drawSteps();
    status(`Step ${steps.length} added.`);
  }

  function message(body) {
    if (typeof body.detail === "string") return body.detail;
    if (Array.isArray(body.detail)) return body.detail.map((d) => d.msg).join("; ");
    return "the calculation failed";
  }

  /* The sequence document the page sends (the sequence contract, docs/sequence.md):
   * the same document `tactica calc` reads, units named from the library. */
  function buildTurn() {
    if (rawDoc) return rawDoc;
    const rules = $("turn-rules").value;
    const targetName = $("turn-target").value.trim();
    if (!steps.length) throw new Error("Add at least one step.");
    if (!targetName) throw new Error("Pick a target.");
    const tm = parseInt($("target-models").value, 10);
    const target = { unit: targetName };
    if (tm) target.models = tm;
    const out = [];
    let lastFighter = null;
    for (const s of steps) {
      const attacker = { unit: s.unit };
      if (s.models) attacker.models = s.models;
      const context = {};
      if (s.phase === "charge") {  // the charge, then its fight (as the CLI's charge@INCHES)
        const c = { phase: "charge", unit: s.unit, distance: s.distance };
        if (s.reroll) c.reroll_charge = true;
        if (s.command) c.command_reroll = true;
        out.push(c);
        context.charged = true;
      }
      if (s.range !== null && s.range !== undefined) context.distance = s.range;
      if (s.stationary) context.remained_stationary = true;
      const phase = s.phase === "charge" ? "fight" : s.phase;
      const step = { phase, attacker, context };
      if (s.effects && s.effects.length) step.effects = s.effects;
      if (phase === "fight") lastFighter = s.unit;
      out.push(step);
    }
    if ($("fights-back").checked) {
      if (!lastFighter) throw new Error("The target fights back against a unit that fights: add a fight step.");
      out.push({ phase: "fight", fights_back: true, against: lastFighter });
    }
    const doc = { rules, target, steps: out };
    const ld = parseInt($("target-ld").value, 10);
    if (ld) doc.target_leadership = ld;
    return doc;
  }

  /* The page's state in the address (#turn=...), so a turn can be shared and reopened. */
  function state() {
    return { rules: $("turn-rules").value, target: $("turn-target").value.trim(),
             models: $("target-models").value, ld: $("target-ld").value,
             back: $("fights-back").checked, steps };
  }
  function shareLink() {
    const link = $("turn-share");
    link.href = rawDoc ? `/turn#doc=${encodeURIComponent(JSON.stringify(rawDoc))}`
                       : `/turn#turn=${encodeURIComponent(JSON.stringify(state()))}`;
    link.hidden = false;
  }
  /* #doc=<a sequence document> (docs/sequence.md, e.g. examples/turn_units.json): sent
   * to /api/turn as it is, so the page shows exactly what `tactica calc` does. */
  function restoreDoc() {
    const m = /^#doc=(.*)$/.exec(window.location.hash);
    if (!m) return false;
    try { rawDoc = JSON.parse(decodeURIComponent(m[1])); } catch (e) { rawDoc = null; }
    if (!rawDoc || !Array.isArray(rawDoc.steps)) { rawDoc = null; return false; }
    $("turn-rules").value = rawDoc.rules === "10th" ? "10th" : "11th";
    const t = rawDoc.target || {};
    $("turn-target").value = String(t.unit || t.name || "");
    const name = (s) => s.unit || (s.attacker && (s.attacker.unit || s.attacker.name)) ||
                        (s.fights_back ? $("turn-target").value : "unit");
    steps.splice(0, steps.length, ...rawDoc.steps.map((s) => (
      { unit: name(s), phase: s.fights_back ? "fights back" : s.phase, distance: s.distance })));
    drawSteps();
    return true;
  }
  function restore() {
    if (restoreDoc()) return true;
    const m = /^#turn=(.*)$/.exec(window.location.hash);
    if (!m) return false;
    let saved;
    try { saved = JSON.parse(decodeURIComponent(m[1])); } catch (e) { return false; }
    if (!saved || !Array.isArray(saved.steps)) return false;
    $("turn-rules").value = saved.rules === "10th" ? "10th" : "11th";
    $("turn-target").value = String(saved.target || "");
    $("target-models").value = String(saved.models || "");
    $("target-ld").value = String(saved.ld || "");
    $("fights-back").checked = !!saved.back;
    steps.splice(0, steps.length, ...saved.steps.filter((s) => s && typeof s.unit === "string"));
    drawSteps();
    return true;
  }

  function mean(pmf) { return pmf.reduce((t, p, i) => t + i * p, 0); }

  /* One bar per step; its segments are the chances of each number of models left. */
  function stackedChart(box, rows, total) {
    box.replaceChildren();
    const W = Math.max(box.clientWidth || 320, 280);
    const H = 240, left = 56, right = 10, top = 12, bottom = 34;
    const svg = svgEl("svg", { viewBox: `0 0 ${W} ${H}`, class: "chart-svg", role: "img",
                               "aria-label": "models left after each step" }, box);
    const plotW = W - left - right, plotH = H - top - bottom;
    for (const p of [0, 0.5, 1]) {
      const y = top + plotH * (1 - p);
      svgEl("line", { x1: left, x2: W - right, y1: y, y2: y, class: "grid" }, svg);
      svgEl("text", { x: left - 6, y: y + 4, class: "tick", "text-anchor": "end" }, svg, pct(p));
    }
    const slot = plotW / rows.length, bw = Math.min(slot * 0.7, 80);
    rows.forEach((r, i) => {
      const x = left + slot * i + (slot - bw) / 2;
      let y = top + plotH;
      for (let left_ = total; left_ >= 0; left_--) {
        const p = r.left[left_] || 0;
        if (p <= 0) continue;
        const h = plotH * p;
        y -= h;
        const seg = svgEl("rect", { x, y, width: bw, height: h, fill: shade(left_, total),
                                    "data-step": i + 1, "data-left": left_, "data-p": p }, svg);
        svgEl("title", {}, seg, `step ${i + 1}: ${left_} model${left_ === 1 ? "" : "s"} left – ${pct(p)}`);
      }
      svgEl("text", { x: x + bw / 2, y: top + plotH + 16, class: "tick", "text-anchor": "middle" },
            svg, `step ${i + 1}`);
    });
    box.appendChild(node("p", { class: "hint" },
      `Each bar is split by the number of the target's models left, out of ${total}:`));
    box.appendChild(shadeLegend(total));
  }
  function shade(left, total) {
    return `hsl(215 70% ${30 + 55 * (1 - left / Math.max(total, 1))}%)`;
  }
  /* The shades' legend: every number of models left (every few, for a big unit). */
  function shadeLegend(total) {
    const ul = node("ul", { class: "legend shades", "aria-label": "models left" });
    const every = Math.max(1, Math.ceil((total + 1) / 8));
    for (let left = total; left >= 0; left--) {
      if (left !== 0 && left !== total && (total - left) % every) continue;
      const sw = node("span", { class: "swatch" });
      sw.style.background = shade(left, total);
      const li = node("li", { "data-left": left });
      li.append(sw, document.createTextNode(left === 0 ? "none left" : `${left} left`));
      ul.appendChild(li);
    }
    return ul;
  }

  function show(body) {
    const total = body.models_destroyed.pmf.length - 1;
    const rows = body.steps.map((s) => {
      const d = s.models_destroyed.pmf;
      const left = [];
      for (let k = 0; k <= total; k++) left[k] = d[total - k] || 0;
      return { s, left };
    });
    $("turn-result").hidden = false;  // shown first: the chart is drawn at its real width
    stackedChart($("turn-chart"), rows, total);
    const table = $("turn-table");
    table.replaceChildren();
    const head = table.createTHead().insertRow();
    for (const h of ["Step", "Chance it happens", "Charge succeeds", "Models left (average)",
                     "Target destroyed by now", "Attacker's models lost (average)"]) {
      head.appendChild(node("th", { scope: "col" }, h));
    }
    const tbody = table.createTBody();
    rows.forEach(({ s, left }, i) => {
      const brought = broughtFight(body.steps, i);
      const tr = node("tr", { "data-step": i + 1, class: brought ? "brought" : "" });
      const who = s.fights_back ? `${s.unit} fights back`
        : brought ? `${s.unit} fights after its charge` : `${s.unit}: ${s.phase}`;
      const cells = [
        [`${i + 1}. ${who}`, "name"], [pct(s.p_happens), "happens"],
        [s.p_charge === null || s.p_charge === undefined ? "–" : pct(s.p_charge), "charge"],
        [mean(left).toFixed(2), "left"], [pct(s.p_unit_destroyed), "destroyed"],
        [s.attacker_losses ? mean(s.attacker_losses.pmf).toFixed(2) : "–", "losses"],
      ];
      for (const [text, key] of cells) {
        const td = node("td", { class: "c-" + key }, text);
        if (key === "destroyed") td.dataset.p = s.p_unit_destroyed;
        tr.appendChild(td);
      }
      tbody.appendChild(tr);
    });
    window.TacticaStack(table);
    const facts = $("turn-facts");
    facts.replaceChildren();
    const fact = (k, v, id) => {
      facts.appendChild(node("dt", {}, k));
      facts.appendChild(node("dd", id ? { id } : {}, v));
    };
    fact("Target destroyed", pct(body.p_unit_destroyed), "turn-p-destroyed");
    if (body.battle_shock) {
      fact("Battle-shocked", `${pct(body.battle_shock.p_battle_shocked)} (tests ${pct(body.battle_shock.p_tested)} of the time, Leadership ${body.battle_shock.leadership}+)`, "turn-shock");
    }
    if (body.cp_expected) {
      const sure = body.cp_expected === body.cp_spent;
      fact("Command points", sure ? String(body.cp_spent) : `${body.cp_expected.toFixed(2)} expected (${body.cp_spent} whatever the dice)`, "turn-cp");
    }
    for (const side of body.other_mortal_wounds || []) {
      fact(side.label, `${side.distribution.mean.toFixed(2)} on average`);
    }
    const notes = $("turn-notes");
    notes.replaceChildren();
    for (const n of new Set([...(body.notes || []), ...body.steps.flatMap((s) => s.notes || [])])) {
      notes.appendChild(node("li", {}, n));
    }
    $("turn-result").hidden = false;
  }

  async function calculate(ev) {
    ev.preventDefault();
    status("Calculating…");
    try {
      const doc = buildTurn();
      shareLink();
      const r = await fetch("/api/turn", { method: "POST", headers: { "Content-Type": "application/json" },
                                           body: JSON.stringify(doc) });
      const body = await r.json();
      if (!r.ok) throw new Error(message(body));
      show(body);
      status("Done.");
    } catch (e) {
      $("turn-result").hidden = true;
      status(e.message, true);
    }
  }

  $("add-step").addEventListener("click", addStep);
  $("new-phase").addEventListener("change", () => {
    $("new-distance").disabled = $("new-phase").value !== "charge";
  });
  $("new-distance").disabled = $("new-phase").value !== "charge";
  $("turn-form").addEventListener("submit", calculate);
  if (restore()) $("turn-form").requestSubmit();
  window.addEventListener("hashchange", () => { if (restore()) $("turn-form").requestSubmit(); });
})();
