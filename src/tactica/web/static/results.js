/* tactica calculator results: the headline (expected damage, models destroyed, chance to
 * wipe, median and 10-90% band), the charts, the per-weapon contribution, the stage
 * table, what was not calculated and the attack in plain words; and the labels of
 * compared pins (what differs between them). Used by calc.js as window.TacticaResults. */
(function (global) {
  "use strict";
  const C = global.TacticaCharts;
  const $ = (id) => document.getElementById(id);

  function node(tag, attrs, text) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") n.className = v; else n.setAttribute(k, v);
    }
    if (text !== undefined) n.textContent = text;
    return n;
  }

  /* The player's words for the engine's and loaders' texts: no file names, spec
   * references or field paths (the same rewrites as tactica.web.wording.player_text). */
  const REWRITES = [
    [/reference_facts\.md §[\d.]+ \(wh40kdc 40kdc-data, ([^)]*)\)/g, "40kdc-data ($1)"],
    [/\s*\((?:reference_facts\.md|reference facts|inventory) §[^)]*\)/g, ""],
    [/\b(?:\w+\.md|reference facts|inventory) §[\w.]+(?: \[\w+\])?/g, "the reference data"],
    [/\bthe \d{3} page\b/g, "the seed page"],
    [/\bwh40kdc (\d+\.\d+(?:\.\d+)?)/g, "40kdc-data $1"],
    [/\b\d{3}_[0-9a-f]{16}\.txt(?::\d+)?/g, "the seed page"],
    [/^line \d+: /g, ""],
    [/\s*\((?:context|target|attacker)\.[\w.]+[^)]*\)/g, ""],
  ];
  /* The contract's circumstances (the page's #circumstances-data: how each is said). */
  const CIRCUMSTANCES = (() => {
    const el = document.getElementById("circumstances-data");
    try { return el ? JSON.parse(el.textContent) : []; } catch (e) { return []; }
  })();
  const CONTEXT_WORDS = Object.fromEntries(CIRCUMSTANCES.map((c) => [c.name, c.words]));
  function plain(text) {
    let t = String(text);
    for (const [re, to] of REWRITES) t = t.replace(re, to);
    // "needs context.charged (ended a charge move)" -> "needs: ended a charge move"
    t = t.replace(/needs context\.\w+(?: of at most [^(]*)? \(([^)]*)\)/g, "needs: $1");
    t = t.replace(/\bcontext\.(\w+)/g, (m, k) => CONTEXT_WORDS[k] || k.replace(/_/g, " "));
    return t;
  }

  // --- the attack in plain words ---------------------------------------------------------
  const STAGE_WORDS = { attacks: "attacks", hit: "hits", wound: "wounds", save: "saves",
                        damage: "damage" };
  function signed(v) { return v > 0 ? "+" + v : "−" + Math.abs(v); }
  function effectWords(e) {
    if (typeof e === "string") return e;
    let t;
    if (e.reroll) t = `re-roll ${STAGE_WORDS[e.reroll] || e.reroll}: ${e.which === "ones" ? "1s" : e.which}`;
    else if (e.hit) t = `hit roll ${signed(e.hit)}`;
    else if (e.wound) t = `wound roll ${signed(e.wound)}`;
    else if (e.save) t = `save roll ${signed(e.save)}`;
    else if (e.ap) t = e.ap < 0 ? `AP improved by ${-e.ap}` : `AP worsened by ${e.ap}`;
    else if (e.damage) t = `damage ${signed(e.damage)}`;
    else if (e.attacks) t = `attacks ${signed(e.attacks)}`;
    else if (e.strength) t = `strength ${signed(e.strength)}`;
    else if (e.critical_hit_on) t = `critical hits on ${e.critical_hit_on}+`;
    else if (e.critical_wound_on) t = `critical wounds on ${e.critical_wound_on}+`;
    else if (e.grant) t = `grants ${typeof e.grant === "string" ? e.grant : JSON.stringify(e.grant)}`;
    else if (e.fnp) t = `Feel No Pain ${e.fnp}+`;
    else t = JSON.stringify(e);
    return e.weapons ? `${t} (${e.weapons.join(", ")})` : t;
  }
  /* A circumstance of ``c`` (the scenario's context) said: [name, words, given]. */
  function said(f, c) {
    const v = c[f.name], has = v !== null && v !== undefined;
    const fill = (t) => String(t || "").replace("{}", v);
    if (f.kind === "flag") return [f.name, v ? f.when : f.unless, !!v];
    if (f.kind === "either") return [f.name, v === true ? f.when : v === false ? f.unless : f.none, has];
    if (f.kind === "choice") {
      const given = has && v !== f.default;
      const words = Object.fromEntries(f.options);
      return [f.name, has ? words[v] || `${f.words} ${v}` : f.none || `${f.words}: ${f.default}`, given];
    }
    if (f.kind === "names") {
      const given = has && v.length > 0;
      return [f.name, given ? `${f.words}: ${v.join(", ")}` : f.unless || `no ${f.words}`, given];
    }
    return [f.name, has ? (f.when ? fill(f.when) : `${f.words} ${v}`) : f.unless || `no ${f.words}`, has];
  }
  function models(target) {
    return (target.models || []).reduce((n, g) => n + (g.count || 1), 0);
  }
  function targetWords(t) {
    if (!t.unit && t.name === "custom") {  // an edited target: what it is now
      const lines = (t.models || []).map((g) => `${g.count || 1}× T${g.T} Sv${g.Sv}+ W${g.W}`
        + (g.invuln ? ` ${g.invuln}++` : "") + (g.fnp ? ` FNP ${g.fnp}+` : ""));
      return `${models(t)} × custom (${lines.join(", ")})`;
    }
    if (!t.unit) return `${models(t)} × ${t.name}`;
    const led = [].concat(t.led_by || []);
    return `${t.models ? t.models + " × " : ""}${t.unit}${led.length ? " led by " + led.join(", ") : ""}`;
  }
  /* The attack as [aspect, words, said] triples in reading order; `said` is false where
   * the words only name a default ("not in cover"), which a sentence leaves out. */
  function describe(s) {
    const c = s.context || {};
    const a = s.attacker;
    const weapons = a.unit  // a unit reference: its wargear choices
      ? [(a.wargear || []).length ? "wargear " + a.wargear.map((w) => w.replace(/:(\d+)$/, " ×$1")).join(", ")
                                  : "the datasheet's loadout", ...(a.profiles || [])]
      : (a.weapons || []).map((w) => `${w.name} ×${w.count || 1}`);
    const led = [...new Set([...(c.led_by || []), ...(a.led_by || [])])];
    const named = (s.effects || []).filter((e) => typeof e === "string");
    const plainEffects = (s.effects || []).filter((e) => typeof e !== "string").map(effectWords);
    const out = [
      ["attacker", (a.unit ? `${a.models ? a.models + " × " : ""}${a.unit}` : a.name) + (led.length ? ` led by ${led.join(", ")}` : ""), true],
      ["weapons", weapons.join(", ") || "no weapons", true],
      ["target", targetWords(s.target), true],
      ["phase", s.phase === "fight" ? "Fight phase" : "Shooting phase", true],
      ["rules", `${s.rules} edition`, true],
    ];
    for (const f of CIRCUMSTANCES) {
      if (!["led_by", "attacker_toughness", "army_faction"].includes(f.name)) out.push(said(f, c));
    }
    out.push(["rolls", plainEffects.join(", ") || "no modifiers", plainEffects.length > 0]);
    out.push(["rules in play", named.join(", ") || "no named rules", named.length > 0]);
    out.push(["method", s.method === "monte-carlo" ? `Monte Carlo, ${s.trials} trials` : "exact",
              s.method === "monte-carlo"]);
    return out;
  }
  function sentence(s) {
    const d = describe(s);
    const get = (k) => d.find(([a]) => a === k)[1];
    const parts = [`${get("attacker")} (${get("weapons")}) against ${get("target")}`,
                   `${get("phase")}, ${get("rules")}`];
    const core = ["attacker", "weapons", "target", "phase", "rules"];
    for (const [k, words, said] of d) if (said && !core.includes(k)) parts.push(words);
    return parts.join(" · ");
  }
  const WEAPON_STATS = [["range", (v) => (v === "Melee" ? "melee" : `${v}″`)], ["A", (v) => `A${v}`],
    ["skill", (v) => (v === null || v === undefined ? "no BS/WS roll" : `BS/WS ${v}+`)],
    ["S", (v) => `S${v}`], ["AP", (v) => `AP${v}`], ["D", (v) => `D${v}`],
    ["abilities", (v) => ((v || []).length ? (v || []).map((a) => (typeof a === "string" ? a : JSON.stringify(a))).join(", ") : "no abilities")]];
  const GROUP_STATS = [["T", (v) => `T${v}`], ["Sv", (v) => `Sv${v}+`],
    ["invuln", (v) => (v ? `${v}+ invulnerable` : "no invulnerable save")], ["W", (v) => `W${v}`],
    ["fnp", (v) => (v ? `Feel No Pain ${v}+` : "no Feel No Pain")],
    ["wounds_lost", (v) => `${v || 0} wounds lost`], ["character", (v) => (v ? "CHARACTER" : "not CHARACTER")]];
  /* The stat lines of typed weapons and model groups as aspects ("Bolt rifle AP-2"),
   * keyed by row and stat, with the row's name: two pins compare a stat only between
   * rows of the same name. */
  function details(s) {
    const out = [];
    (s.attacker.unit ? [] : s.attacker.weapons || []).forEach((w, i) => {
      for (const [k, say] of WEAPON_STATS) out.push([`w${i}.${k}`, `${w.name} ${say(w[k])}`, w.name]);
    });
    const t = s.target || {};
    (t.unit ? [] : t.models || []).forEach((g, i) => {
      for (const [k, say] of GROUP_STATS) out.push([`g${i}.${k}`, `${g.name} ${say(g[k])}`, g.name]);
    });
    if (!t.unit) {
      out.push(["target.dr", t.damage_reduction ? `damage −${t.damage_reduction}` : "no damage reduction", ""]);
      out.push(["target.half", t.half_damage ? "damage halved" : "damage not halved", ""]);
      out.push(["target.keywords", (t.keywords || []).join(", ") || "no target keywords", ""]);
    }
    return out;
  }
  /* Labels for pinned scenarios: the letter and what differs between them (the attack's
   * aspects, and the stats of typed rows of the same name). */
  function pinLabels(scenarios) {
    const described = scenarios.map((s) => [...describe(s),
      ...details(s).map(([k, v, row]) => [k, v, true, row])]);
    const differing = new Set();
    for (const aspects of described) {
      aspects.forEach(([k, v, , row]) => {
        const others = described.map((d) => d.find(([k0]) => k0 === k));
        if (others.some((o) => !o || (row !== undefined && o[3] !== row))) {
          if (row === undefined) differing.add(k);  // a row of another name: not compared
        } else if (others.some((o) => o[1] !== v)) differing.add(k);
      });
    }
    return described.map((aspects, i) => {
      const letter = "ABCDEFG"[i] || "?";
      const shown = aspects.filter(([k]) => differing.has(k)).map(([, v]) => v);
      const get = (k) => aspects.find(([a]) => a === k)[1];
      return `${letter}: ${shown.length ? shown.join(" · ") : `${get("attacker")} → ${get("target")}`}`;
    });
  }

  // --- numbers ---------------------------------------------------------------------------
  /* The smallest value whose cumulative probability reaches q (summed left to right). */
  function quantile(pmf, q) {
    let total = 0;
    for (let x = 0; x < pmf.length; x++) {
      total += pmf[x];
      if (total >= q) return x;
    }
    return pmf.length - 1;
  }
  function card(label, value, key, exact, pmf) {
    const d = node("div", { class: "card", "data-key": key, "data-value": String(exact) });
    d.append(node("span", { class: "label" }, label), node("strong", {}, value));
    if (pmf) {
      const median = quantile(pmf, 0.5);
      const low = quantile(pmf, 0.1);
      const high = quantile(pmf, 0.9);
      Object.assign(d.dataset, { median, low, high });
      d.appendChild(node("span", { class: "band" },
                         `median ${median} · 80% between ${low} and ${high}`));
    }
    return d;
  }
  /* Rapid Fire and Melta need the distance (or the half range toggle). */
  function distanceNote(s) {
    const c = s.context || {};
    if (c.within_half_range !== undefined && c.within_half_range !== null) return null;
    if (c.distance !== null && c.distance !== undefined) return null;
    const found = new Set();
    for (const w of s.attacker.weapons || []) {
      for (const a of w.abilities || []) {
        const m = /^(rapid fire|melta)/i.exec(typeof a === "string" ? a : (a.kind || "").replace("_", " "));
        if (m) found.add(/^r/i.test(m[1]) ? "Rapid Fire" : "Melta");
      }
    }
    if (!found.size) return null;
    return `Distance is blank: ${[...found].join(" and ")} bonuses are not counted. ` +
           "Give the distance, or set Within half range.";
  }

  function headline(res, s) {
    const box = node("div", { class: "headline" });
    box.append(
      card("Expected damage", res.damage.mean.toFixed(2), "damage", res.damage.mean, res.damage.pmf),
      card("Models destroyed", res.models_destroyed.mean.toFixed(2), "models_destroyed",
           res.models_destroyed.mean, res.models_destroyed.pmf),
      card(`Chance to wipe all ${models(s.target)}`, C.pct(res.p_unit_destroyed), "p_unit_destroyed",
           res.p_unit_destroyed));
    const pipeline = node("div", { class: "pipeline" });
    pipeline.append(
      card("Attacks", res.attacks.mean.toFixed(2), "attacks", res.attacks.mean),
      card("Hits", res.hits.mean.toFixed(2), "hits", res.hits.mean),
      card("Wounds", res.wounds.mean.toFixed(2), "wounds", res.wounds.mean),
      card("Unsaved", res.unsaved.mean.toFixed(2), "unsaved", res.unsaved.mean));
    if (res.cp_spent) pipeline.appendChild(card("CP spent", String(res.cp_spent), "cp_spent", res.cp_spent));
    if (res.attacker_mortal_wounds.mean) {
      pipeline.appendChild(card("Mortal wounds to attacker", res.attacker_mortal_wounds.mean.toFixed(2),
                                "attacker_mortal_wounds", res.attacker_mortal_wounds.mean));
    }
    return [box, pipeline];
  }
  function charts(res, s) {
    const n = models(s.target);
    const label = `${s.attacker.name} → ${s.target.name}`;
    C.barChart($("chart-damage"), [{ label, values: res.damage.pmf }],
               { title: "damage distribution", xTitle: "damage", yTitle: "P(exactly)" });
    C.barChart($("chart-destroyed"), [{ label, values: res.models_destroyed.pmf }],
               { title: "models destroyed", xTitle: "models destroyed", yTitle: "P(exactly)", minX: Math.min(n, 12) });
    C.lineChart($("chart-atleast"), [{ label, values: C.atLeast(res.models_destroyed.pmf, n) }],
                { title: "chance to destroy at least N models", xTitle: "at least N models", yTitle: "P(at least)", from: 1, to: n });
  }
  function tables(res) {
    const stages = $("stages");
    stages.replaceChildren();
    const head = stages.createTHead().insertRow();
    for (const h of ["weapon", "stage", "how"]) head.appendChild(node("th", {}, h));
    const body = stages.createTBody();
    for (const st of res.stages) {
      const row = body.insertRow();
      row.insertCell().textContent = st.weapon;
      row.insertCell().textContent = st.stage;
      row.insertCell().textContent = plain(st.detail);
    }
    const ws = $("weapon-summary");
    ws.replaceChildren();
    const wh = ws.createTHead().insertRow();
    for (const h of ["weapon", "attacks", "hits", "wounds", "critical wounds", "share of wounds"]) {
      wh.appendChild(node("th", {}, h));
    }
    const wb = ws.createTBody();
    const all = res.weapons.reduce((t, w) => t + w.wounds, 0);
    for (const w of res.weapons) {
      const row = wb.insertRow();
      row.insertCell().textContent = w.weapon;
      for (const k of ["attacks", "hits", "wounds", "critical_wounds"]) row.insertCell().textContent = w[k].toFixed(2);
      const share = all > 0 ? w.wounds / all : 0;
      const cell = row.insertCell();
      cell.className = "share";
      const bar = node("span", { class: "share-bar" });
      bar.style.width = `${Math.round(100 * share)}%`;
      cell.append(bar, node("span", {}, `${Math.round(100 * share)}%`));
    }
    window.TacticaStack(stages);
    window.TacticaStack(ws);
  }
  /* The scenario as the engine read it: a unit reference's attacker replaced by the weapon
   * lines it resolved into (the result's `resolved` echo), for the charts and tables. */
  function asFielded(s, res) {
    const a = s.attacker;
    const t = s.target;
    if ((!a.unit && !t.unit) || !res.resolved) return s;
    const out = { ...s };
    if (a.unit) {
      const led = [...new Set([...((s.context || {}).led_by || []), ...[].concat(a.led_by || [])])];
      out.attacker = { name: a.unit, keywords: [], weapons: res.resolved.attacker };
      out.context = { ...(s.context || {}), led_by: led };
    }
    if (t.unit) {
      const led = [].concat(t.led_by || []);
      out.target = { name: t.unit + (led.length ? ` led by ${led.join(", ")}` : ""), keywords: [],
                     models: res.resolved.target };
    }
    return out;
  }
  /* The resolved echo in plain words: the models and what they carry, the weapon lines
   * used, the target's groups, and which choices were the datasheet's defaults. */
  function fielded(res) {
    const r = res.resolved;
    const items = [];
    if (r) {
      for (const t of r.attacker_models) items.push("Attacker: " + plain(t));
      if (r.attacker_models.length && r.attacker.length) {
        items.push("Weapons used: " + r.attacker.map((w) => `${w.name} ×${w.count}`).join(", "));
      }
      for (const t of r.target_models) items.push("Target: " + plain(t));
      for (const d of r.defaults) items.push("Default: " + plain(d));
    }
    $("fielded").replaceChildren(...items.map((t) => node("li", {}, t)));
    $("fielded-box").hidden = !items.length;
  }
  function render(res, s) {
    $("result").hidden = false;  // first: the charts take their width from the page
    $("choices").textContent = "Calculated: " + sentence(s);
    $("summary").replaceChildren(...headline(res, s));
    charts(res, s);
    tables(res);
    const nc = $("not-calculated");
    nc.replaceChildren(...res.not_calculated.map((t) => node("li", {}, plain(t))));
    $("not-calculated-box").hidden = !res.not_calculated.length;
    const notes = res.notes.map(plain);
    const skipped = distanceNote(s);
    if (skipped) notes.unshift(skipped);
    if (res.effects_applied.length) notes.unshift("Rules applied: " + res.effects_applied.join(", "));
    for (const o of res.other_mortal_wounds) notes.push(`${plain(o.label)}: expected ${o.distribution.mean.toFixed(2)}`);
    $("notes").replaceChildren(...notes.map((t) => node("li", {}, t)));
    $("notes-box").hidden = !notes.length;
    fielded(res);
  }

  global.TacticaResults = { asFielded, describe, distanceNote, pinLabels, plain, quantile, render,
                            sentence };
})(window);
