/* tactica calculator form: weapon and model rows, and the scenario read from (and
 * written back into) the form. Used by calc.js as window.TacticaForm. Text typed here is
 * only parsed (numbers, JSON.parse); nothing is evaluated. */
(function (global) {
  "use strict";
  const $ = (id) => document.getElementById(id);
  const CTX_FLAGS = ["remained_stationary", "advanced", "charged", "cover", "stealth",
                     "arrived_from_reserves", "disembarked", "tyranids_nearby"];
  const WEAPON_FIELDS = [["count", "N", "numeric"], ["range", "Range", "text"],
                         ["A", "A", "text"], ["skill", "BS/WS", "numeric"],
                         ["S", "S", "numeric"], ["AP", "AP", "text"], ["D", "D", "text"],
                         ["abilities", "Abilities", "text"]];
  const GROUP_FIELDS = [["count", "N"], ["T", "T"], ["Sv", "Sv"], ["invuln", "Inv"],
                        ["W", "W"], ["fnp", "FNP"], ["wounds_lost", "Lost"]];

  let changed = () => {};  // calc.js: re-check the named effects

  function node(tag, attrs, text) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") n.className = v; else n.setAttribute(k, v);
    }
    if (text !== undefined) n.textContent = text;
    return n;
  }
  function int(text) {
    const t = String(text).trim().replace(/\+$/, "");
    if (t === "") return null;
    return /^-?\d+$/.test(t) ? Number(t) : t;  // non-numbers go as typed: the API names them
  }
  function num(text) {
    const t = String(text).trim();
    if (t === "") return null;
    return Number.isFinite(Number(t)) ? Number(t) : t;
  }
  function words(text) {
    return String(text).split(",").map((w) => w.trim()).filter((w) => w);
  }
  function b64encode(obj) {
    const bytes = new TextEncoder().encode(JSON.stringify(obj));
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function b64decode(text) {
    const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
    const bin = atob(b64 + "===".slice((b64.length + 3) % 4));
    const bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
    return JSON.parse(new TextDecoder().decode(bytes));
  }


  // --- rows ----------------------------------------------------------------------------
  function weaponRow(w, selected) {
    const row = node("fieldset", { class: "wrow" });
    const head = node("div", { class: "rowhead" });
    const use = node("input", { type: "checkbox", class: "f-use", "aria-label": "use" });
    use.checked = selected !== false;
    const name = node("input", { class: "f-name", "aria-label": "weapon name" });
    name.value = w.name || "weapon";
    const del = node("button", { type: "button", class: "icon del", title: "remove" }, "×");
    del.addEventListener("click", () => { row.remove(); changed(); });
    head.append(use, name, del);
    const grid = node("div", { class: "grid" });
    for (const [key, label, mode] of WEAPON_FIELDS) {
      const lab = node("label", { class: key === "abilities" ? "wide" : "" }, label);
      const input = node("input", { class: "f-" + key, inputmode: mode, spellcheck: "false" });
      let value = w[key];
      if (key === "abilities") value = (value || []).join(", ");
      if (key === "skill") value = value === null || value === undefined ? "" : value;
      input.value = value === undefined ? "" : value;
      lab.appendChild(input);
      grid.appendChild(lab);
    }
    row.append(head, grid);
    return row;
  }
  function readWeapon(row) {
    const f = (k) => row.querySelector(".f-" + k).value;
    const range = f("range").trim().replace(/["″]$/, "");
    return {
      name: f("name").trim() || "weapon", count: int(f("count")),
      range: /^melee$/i.test(range) ? "Melee" : int(range) ?? 24,
      A: f("A").trim(), skill: /^(n\/?a|-)$/i.test(f("skill").trim()) ? null : int(f("skill")),
      S: int(f("S")), AP: int(f("AP")) ?? 0, D: f("D").trim(), abilities: words(f("abilities")),
    };
  }
  function groupRow(g) {
    const row = node("fieldset", { class: "grow-row" });
    const head = node("div", { class: "rowhead" });
    const name = node("input", { class: "f-name", "aria-label": "model name" });
    name.value = g.name || "model";
    const character = node("label", { class: "check small" });
    const ch = node("input", { type: "checkbox", class: "f-character" });
    ch.checked = !!g.character;
    character.append(ch, document.createTextNode(" Character"));
    const del = node("button", { type: "button", class: "icon del", title: "remove" }, "×");
    del.addEventListener("click", () => { row.remove(); changed(); });
    head.append(name, character, del);
    const grid = node("div", { class: "grid" });
    for (const [key, label] of GROUP_FIELDS) {
      const lab = node("label", {}, label);
      const input = node("input", { class: "f-" + key, inputmode: "numeric" });
      const v = g[key];
      input.value = v === null || v === undefined ? (key === "count" ? 1 : "") : v;
      if (key === "wounds_lost" && !v) input.value = "0";
      lab.appendChild(input);
      grid.appendChild(lab);
    }
    row.append(head, grid);
    return row;
  }
  function readGroup(row) {
    const f = (k) => row.querySelector(".f-" + k).value;
    return {
      name: f("name").trim() || "model", count: int(f("count")), T: int(f("T")),
      Sv: int(f("Sv")), invuln: int(f("invuln")), W: int(f("W")), fnp: int(f("fnp")),
      wounds_lost: int(f("wounds_lost")) ?? 0,
      character: row.querySelector(".f-character").checked,
    };
  }
  function setWeapons(list) {
    $("weapons").replaceChildren(...list.map((w) => weaponRow(w, w.selected)));
  }
  function setGroups(list) {
    $("target-groups").replaceChildren(...list.map(groupRow));
  }

  // --- scenario <-> form -----------------------------------------------------------------
  function plainEffects() {
    const out = [];
    for (const key of ["hit", "wound", "ap", "damage"]) {
      const v = Number($("mod-" + key).value);
      if (v) out.push({ [key]: v });
    }
    for (const stage of ["hit", "wound"]) {
      const which = $("mod-reroll-" + stage).value;
      if (which) out.push({ reroll: stage, which });
    }
    if ($("mod-crit-hit").value) out.push({ critical_hit_on: Number($("mod-crit-hit").value) });
    if ($("mod-crit-wound").value) {
      out.push({ critical_wound_on: Number($("mod-crit-wound").value) });
    }
    const extra = $("mod-extra").value.trim();
    if (extra) {
      let parsed;
      try { parsed = JSON.parse(extra); } catch (e) {
        throw new Error("Other plain effects: not valid JSON (" + e.message + ")");
      }
      out.push(...(Array.isArray(parsed) ? parsed : [parsed]));
    }
    return out;
  }
  /* The units' rules the form does not show (their abilities by name, Deadly Demise X,
   * Firing Deck X), kept as the library or a link gave them, sent with the scenario. */
  const unitRules = { attacker: {}, target: {} };
  const RULE_FIELDS = { attacker: ["abilities", "firing_deck"],
                        target: ["abilities", "deadly_demise"] };
  function keepUnitRules(side, unit) {
    unitRules[side] = Object.fromEntries(RULE_FIELDS[side]
      .filter((k) => unit && unit[k] != null).map((k) => [k, unit[k]]));
  }
  /* The scenario the form holds; with `chosen` (named effect -> parameter) its effects. */
  function readScenario(chosen) {
    const weaponRows = [...$("weapons").children].filter((r) => r.querySelector(".f-use").checked);
    const s = {
      rules: $("rules").value, phase: $("phase").value, method: $("method").value,
      attacker: { name: $("attacker-name").value.trim() || "attacker",
                  keywords: words($("attacker-keywords").value),
                  weapons: weaponRows.map(readWeapon), ...unitRules.attacker },
      target: { name: $("target-name").value.trim() || "target",
                keywords: words($("target-keywords").value),
                models: [...$("target-groups").children].map(readGroup),
                damage_reduction: int($("target-dr").value) ?? 0,
                half_damage: $("target-half").checked, ...unitRules.target },
      context: { distance: num($("ctx-distance").value),
                 led_by: words($("ctx-led-by").value),
                 attacker_wounds_left: int($("ctx-wounds-left").value),
                 attacker_toughness: int($("ctx-attacker-toughness").value) },
      effects: [],
    };
    for (const flag of CTX_FLAGS) s.context[flag] = $("ctx-" + flag).checked;
    if (s.method === "monte-carlo") {
      s.trials = int($("trials").value);
      if ($("seed").value.trim()) s.seed = int($("seed").value);
    }
    if (chosen) {
      s.effects = plainEffects();
      for (const [name, param] of chosen) s.effects.push(param ? `${name}: ${param}` : name);
    }
    return s;
  }
  /* An ability as the scenario's JSON may write it (pydantic's output form) in rulebook
   * words, as the contract's input form has it ("Sustained Hits D3"). */
  function abilityText(a) {
    if (typeof a === "string") return a;
    switch (a && a.kind) {
      case "flag": return a.name;
      case "anti": return `Anti-${a.keyword} ${a.threshold}+`;
      case "sustained_hits": return `Sustained Hits ${a.hits}`;
      case "rapid_fire": return `Rapid Fire ${a.extra}`;
      case "melta": return `Melta ${a.extra}`;
      case "blast": return !a.extra || a.extra === 1 ? "Blast" : `Blast ${a.extra}`;
      default: return JSON.stringify(a);  // sent back as typed: the API names the field
    }
  }
  /* Put a scenario into the form; its named effects go into `chosen`. */
  function fillForm(s, chosen) {
    $("rules").value = s.rules || "11th";
    $("phase").value = s.phase || "shooting";
    $("method").value = s.method || "exact";
    methodChanged();
    if (s.trials) $("trials").value = s.trials;
    $("seed").value = s.seed ?? "";
    const a = s.attacker || {};
    keepUnitRules("attacker", a);
    $("attacker-name").value = a.name || "attacker";
    $("attacker-keywords").value = (a.keywords || []).join(", ");
    $("attacker-unit").value = a.name && a.name !== "attacker" ? a.name : "";
    // the contract's defaults for what a link may leave out
    setWeapons((a.weapons || []).map((w) => ({ name: "weapon", count: 1, range: 24, AP: 0, ...w,
      selected: true, abilities: (w.abilities || []).map(abilityText) })));
    $("attacker-models").value = Math.max(0, ...(a.weapons || []).map((w) => w.count || 1)) || "";
    const t = s.target || {};
    keepUnitRules("target", t);
    $("target-name").value = t.name || "target";
    $("target-unit").value = t.name && t.name !== "target" ? t.name : "";
    $("target-keywords").value = (t.keywords || []).join(", ");
    setGroups(t.models || []);
    $("target-models").value = (t.models || []).reduce((n, g) => n + (g.count || 1), 0) || "";
    $("target-dr").value = t.damage_reduction || 0;
    $("target-half").checked = !!t.half_damage;
    const c = s.context || {};
    $("ctx-distance").value = c.distance ?? "";
    $("ctx-led-by").value = (c.led_by || []).join(", ");
    $("ctx-wounds-left").value = c.attacker_wounds_left ?? "";
    $("ctx-attacker-toughness").value = c.attacker_toughness ?? "";
    for (const flag of CTX_FLAGS) $("ctx-" + flag).checked = !!c[flag];
    fillEffects(s.effects || [], chosen);
  }
  function fillEffects(list, chosen) {
    for (const id of ["hit", "wound", "ap", "damage"]) $("mod-" + id).value = "0";
    for (const id of ["reroll-hit", "reroll-wound", "crit-hit", "crit-wound"]) {
      $("mod-" + id).value = "";
    }
    chosen.clear();
    const extra = [];
    const setSelect = (id, value) => {
      const sel = $(id);
      if ([...sel.options].some((o) => o.value === String(value))) {
        sel.value = String(value);
        return true;
      }
      return false;
    };
    for (const e of list) {
      if (typeof e === "string") {
        const [name, ...rest] = e.split(":");
        chosen.set(name.trim(), rest.join(":").trim());
        continue;
      }
      const keys = Object.keys(e).filter((k) => e[k] !== null && e[k] !== undefined);
      const key = keys.length === 1 ? keys[0] : null;
      let done = false;
      if (key && ["hit", "wound", "ap", "damage"].includes(key) && !$("mod-" + key).value.match(/^-?[1-9]/)) {
        done = setSelect("mod-" + key, e[key]);
      } else if (key === "critical_hit_on") done = setSelect("mod-crit-hit", e[key]);
      else if (key === "critical_wound_on") done = setSelect("mod-crit-wound", e[key]);
      else if (keys.length === 2 && e.reroll && e.which && ["hit", "wound"].includes(e.reroll)) {
        done = setSelect("mod-reroll-" + e.reroll, e.which);
      }
      if (!done) extra.push(e);
    }
    $("mod-extra").value = extra.length ? JSON.stringify(extra) : "";
  }

  function methodChanged() {
    const mc = $("method").value === "monte-carlo";
    $("trials").disabled = !mc;
    $("seed").disabled = !mc;
  }

  global.TacticaForm = {
    b64decode, b64encode, fillForm, groupRow, int, keepUnitRules, methodChanged, node,
    readScenario,
    setGroups, setWeapons, weaponRow, words,
    onChange(fn) { changed = fn; },
  };
})(window);
