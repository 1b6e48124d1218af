/* tactica calculator form: weapon and model rows, the rule controls (hit, wound, save,
 * damage), granted abilities, and the scenario read from (and written back into) the
 * form. Used by calc.js as window.TacticaForm. Text typed here is only parsed (numbers,
 * JSON.parse); nothing is evaluated. */
(function (global) {
  "use strict";
  const $ = (id) => document.getElementById(id);
  /* The circumstances' controls: made from the scenario contract (each has data-ctx, its
   * field, and data-kind: flag, either, number, whole, choice, text or names). */
  const ctxControls = () => [...document.querySelectorAll("[data-ctx]")];
  function readContext(context) {
    for (const el of ctxControls()) {
      const name = el.dataset.ctx, kind = el.dataset.kind, v = el.value;
      if (kind === "flag") context[name] = el.checked;
      else if (kind === "either") { if (v) context[name] = v === "yes"; }
      else if (kind === "number") { const n = num(v); if (n !== null) context[name] = n; }
      else if (kind === "whole") { const n = int(v); if (n !== null) context[name] = n; }
      else if (kind === "names") { const w = words(v); if (w.length) context[name] = w; }
      else if (v.trim()) context[name] = v.trim();
    }
    return context;
  }
  function writeContext(c) {
    for (const el of ctxControls()) {
      const name = el.dataset.ctx, kind = el.dataset.kind, v = c[name];
      if (kind === "flag") el.checked = !!v;
      else if (kind === "either") el.value = v === true ? "yes" : v === false ? "no" : "";
      else if (kind === "names") el.value = (v || []).join(", ");
      else if (kind === "choice" && (v === undefined || v === null)) el.selectedIndex = 0;
      else el.value = v ?? "";
    }
  }
  const WEAPON_FIELDS = [["count", "N", "numeric"], ["range", "Range", "text"],
                         ["A", "A", "text"], ["skill", "BS/WS", "numeric"],
                         ["S", "S", "numeric"], ["AP", "AP", "text"], ["D", "D", "text"],
                         ["abilities", "Abilities", "text"]];
  const GROUP_FIELDS = [["count", "N"], ["T", "T"], ["Sv", "Sv"], ["invuln", "Inv"],
                        ["W", "W"], ["fnp", "FNP"], ["wounds_lost", "Lost"]];
  /* The plain modifiers as controls: effect key -> [select id, rule group]. */
  const MODS = { attacks: ["mod-attacks", "hit"], hit: ["mod-hit", "hit"],
                 strength: ["mod-strength", "wound"], wound: ["mod-wound", "wound"],
                 ap: ["mod-ap", "save"], save: ["mod-save", "save"],
                 damage: ["mod-damage", "damage"],
                 critical_hit_on: ["mod-crit-hit", "hit"],
                 critical_wound_on: ["mod-crit-wound", "wound"] };
  /* Re-rolls: the roll re-rolled -> rule group. */
  const REROLLS = { attacks: "hit", hit: "hit", wound: "wound", save: "save", damage: "damage" };
  const GROUPS = ["hit", "wound", "save", "damage"];

  let changed = () => {};  // calc.js: the form changed (stale result, re-check effects)

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
  function removeButton(row, what) {
    const del = node("button", { type: "button", class: "icon del", title: "remove",
                                 "aria-label": "remove " + what }, "×");
    del.addEventListener("click", () => { row.remove(); changed(); });
    return del;
  }

  // --- rows ----------------------------------------------------------------------------
  function weaponRow(w, selected) {
    const row = node("fieldset", { class: "wrow" });
    if (w.weapon) row.dataset.weapon = w.weapon;  // one profile of a weapon with several
    const head = node("div", { class: "rowhead" });
    const useLabel = node("label", { class: "check use" });
    const use = node("input", { type: "checkbox", class: "f-use", "aria-label": "use" });
    use.checked = selected !== false;
    useLabel.appendChild(use);
    const name = node("input", { class: "f-name", "aria-label": "weapon name" });
    name.value = w.name || "weapon";
    head.append(useLabel, name, removeButton(row, "weapon"));
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
    head.append(name, character, removeButton(row, "model group"));
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
    refreshScopes();
  }
  function setGroups(list) {
    $("target-groups").replaceChildren(...list.map(groupRow));
  }
  /* The weapon rows now: [{name, selected, count, row}]. */
  function weaponState() {
    return [...$("weapons").children].map((row) => ({
      row, name: row.querySelector(".f-name").value.trim(),
      selected: row.querySelector(".f-use").checked,
      count: row.querySelector(".f-count").value,
    }));
  }

  // --- per-weapon scope and granted abilities -------------------------------------------
  function scopeSelect(cls, label, value) {
    const sel = node("select", { class: cls, "aria-label": label });
    fillScope(sel, value);
    return sel;
  }
  function fillScope(sel, value) {
    const keep = value === undefined ? sel.value : value;
    const names = [...new Set(weaponState().map((w) => w.name).filter((n) => n))];
    if (keep && !names.includes(keep)) names.push(keep);  // a link's scope is kept as sent
    sel.replaceChildren(node("option", { value: "" }, "all weapons"),
                        ...names.map((n) => node("option", { value: n }, n)));
    sel.value = keep || "";
  }
  function refreshScopes() {
    for (const sel of document.querySelectorAll("select.scope")) fillScope(sel);
  }
  function grantRow(ability, scope) {
    const row = node("div", { class: "grant fields" });
    const lab = node("label", { class: "grow" }, "Ability");
    const input = node("input", { class: "f-grant", list: "ability-names", spellcheck: "false",
                                  placeholder: "Lethal Hits" });
    input.value = ability || "";
    lab.appendChild(input);
    const scopeLab = node("label", {}, "for");
    scopeLab.appendChild(scopeSelect("scope f-grant-scope", "granted to which weapons", scope));
    row.append(lab, scopeLab, removeButton(row, "granted ability"));
    return row;
  }

  // --- scenario <-> form -----------------------------------------------------------------
  function scoped(effect, group) {
    const scope = $("scope-" + group).value;
    return scope ? { ...effect, weapons: [scope] } : effect;
  }
  function plainEffects() {
    const out = [];
    for (const [key, [id, group]] of Object.entries(MODS)) {
      const v = $(id).value;
      if (v !== "" && Number(v) !== 0) out.push(scoped({ [key]: Number(v) }, group));
    }
    for (const [stage, group] of Object.entries(REROLLS)) {
      const which = $("mod-reroll-" + stage).value;
      if (which.startsWith("below:")) {  // "re-roll damage rolls below N"
        out.push(scoped({ reroll: stage, which: "below", below: Number(which.slice(6)) }, group));
      } else if (which) out.push(scoped({ reroll: stage, which }, group));
    }
    for (const row of $("grants").children) {
      const ability = row.querySelector(".f-grant").value.trim();
      const scope = row.querySelector(".f-grant-scope").value;
      if (ability) out.push(scope ? { grant: ability, weapons: [scope] } : { grant: ability });
    }
    const extra = $("mod-extra").value.trim();
    if (extra) {
      let parsed;
      try { parsed = JSON.parse(extra); } catch (e) {
        throw new Error("Other effects: not valid JSON (" + e.message + ")");
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
  /* The attacker and the target as unit references when the form fields library units
   * (calc.js). */
  let attackerRef = () => null;
  let targetRef = () => null;
  let pendingWargear = [];  // a link's wargear choices, until calc.js has the controls
  let pendingProfiles = [];  // a link's profile choices, likewise
  function takePendingWargear() { const out = pendingWargear; pendingWargear = []; return out; }
  function takePendingProfiles() { const out = pendingProfiles; pendingProfiles = []; return out; }
  function setAttackerRef(fn) { attackerRef = fn; }
  function setTargetRef(fn) { targetRef = fn; }
  /* The scenario the form holds; with `chosen` (named effect -> parameter) its effects;
   * with `fielded` the attacker and the target as unit references where the form fields
   * library units (the calculator then fields them, as every other door does). */
  function readScenario(chosen, fielded) {
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
      context: readContext({ led_by: words($("ctx-led-by").value),
                             attacker_toughness: int($("ctx-attacker-toughness").value) }),
      effects: [],
    };
    if ($("ctx-detachment").value) s.context.detachment = $("ctx-detachment").value;
    if (s.method === "monte-carlo") {
      s.trials = int($("trials").value);
      if ($("seed").value.trim()) s.seed = int($("seed").value);
    }
    const ref = fielded ? attackerRef() : null;
    if (ref) s.attacker = ref;
    const tref = fielded ? targetRef() : null;
    if (tref) s.target = tref;
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
      case "cleave": return `Cleave ${a.extra}`;
      case "named": return a.parameter ? `${a.name} ${a.parameter}` : a.name;
      case "limited": {
        const words = [];
        if (a.only && a.only.length) words.push("only against " + a.only.join("/"));
        if (a.excluded && a.excluded.length) words.push("not against " + a.excluded.join("/"));
        return `${abilityText(a.ability)} (${words.join(" and ")})`;
      }
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
    pendingWargear = a.unit ? [...(a.wargear || [])] : [];
    pendingProfiles = a.unit ? [...(a.profiles || [])] : [];
    keepUnitRules("attacker", a.unit ? {} : a);
    $("attacker-name").value = a.name || "attacker";
    $("attacker-keywords").value = (a.keywords || []).join(", ");
    $("attacker-unit").value = a.name && a.name !== "attacker" ? a.name : "";
    // the contract's defaults for what a link may leave out
    setWeapons((a.weapons || []).map((w) => ({ name: "weapon", count: 1, range: 24, AP: 0, ...w,
      selected: true, abilities: (w.abilities || []).map(abilityText) })));
    $("attacker-models").value = Math.max(0, ...(a.weapons || []).map((w) => w.count || 1)) || "";
    if (a.unit) {  // a unit reference: calc.js fields it again (pendingWargear)
      $("attacker-unit").value = a.unit;
      $("attacker-name").value = a.unit;
      $("attacker-models").value = a.models || "";
    }
    $("attacker-leader-fielded").checked = !!(a.unit && (a.led_by || []).length);
    const t = s.target || {};
    keepUnitRules("target", t.unit ? {} : t);
    $("target-name").value = t.unit || t.name || "target";
    $("target-unit").value = t.unit || (t.name && t.name !== "target" ? t.name : "");
    $("target-leader").value = t.unit ? [].concat(t.led_by || []).join(", ") : "";
    $("target-keywords").value = (t.keywords || []).join(", ");
    setGroups(t.unit ? [] : t.models || []);  // a unit's rows come from the library
    $("target-models").value = t.unit ? (t.models || "")
      : (t.models || []).reduce((n, g) => n + (g.count || 1), 0) || "";
    $("target-dr").value = t.damage_reduction || 0;
    $("target-half").checked = !!t.half_damage;
    const c = s.context || {};
    writeContext(c);
    const leaders = [...(c.led_by || []), ...(a.unit ? [].concat(a.led_by || []) : [])];
    $("ctx-led-by").value = [...new Set(leaders)].join(", ");
    setDetachments(c.detachment ? [c.detachment] : [], c.detachment || "");
    $("ctx-attacker-toughness").value = c.attacker_toughness ?? "";
    fillEffects(s.effects || [], chosen);
  }
  /* Whether a select can show this value (an option, not set yet: two of a kind go as JSON). */
  function canSelect(id, value) {
    const sel = $(id);
    if (sel.value !== "" && Number(sel.value) !== 0) return false;
    return [...sel.options].some((o) => o.value === String(value));
  }
  function setSelect(id, value, group, e) {
    if (!canSelect(id, value) || !takeScope(e, group)) return false;
    $(id).value = String(value);
    return true;
  }
  /* A plain effect's scope fits a group's scope control (the first one sets it). */
  function takeScope(e, group) {
    const scope = e.weapons ? e.weapons : [];
    if (scope.length > 1) return false;
    const sel = $("scope-" + group);
    const want = scope[0] || "";
    if (sel.dataset.taken && sel.value !== want) return false;
    if (want) fillScope(sel, want);
    sel.dataset.taken = "1";
    return true;
  }
  function fillPlain(e) {
    const keys = Object.keys(e).filter((k) => e[k] !== null && e[k] !== undefined && k !== "weapons");
    if (keys.length === 1 && MODS[keys[0]]) {
      const [id, group] = MODS[keys[0]];
      return setSelect(id, e[keys[0]], group, e);
    }
    if (keys.length === 2 && e.reroll && e.which && REROLLS[e.reroll]) {
      return setSelect("mod-reroll-" + e.reroll, e.which, REROLLS[e.reroll], e);
    }
    if (keys.length === 3 && e.reroll && e.which === "below" && REROLLS[e.reroll]) {
      return setSelect("mod-reroll-" + e.reroll, `below:${e.below}`, REROLLS[e.reroll], e);
    }
    if (keys.length === 1 && keys[0] === "grant" && (!e.weapons || e.weapons.length === 1)) {
      $("grants").appendChild(grantRow(abilityText(e.grant), e.weapons ? e.weapons[0] : ""));
      return true;
    }
    return false;
  }
  function fillEffects(list, chosen) {
    for (const [id] of Object.values(MODS)) $(id).value = id.startsWith("mod-crit") ? "" : "0";
    for (const stage of Object.keys(REROLLS)) $("mod-reroll-" + stage).value = "";
    for (const group of GROUPS) {
      const sel = $("scope-" + group);
      delete sel.dataset.taken;
      fillScope(sel, "");
    }
    $("grants").replaceChildren();
    chosen.clear();
    const extra = [];
    for (const e of list) {
      if (typeof e === "string") {
        const [name, ...rest] = e.split(":");
        chosen.set(name.trim(), rest.join(":").trim());
      } else if (!fillPlain(e)) {
        extra.push(e);
      }
    }
    for (const group of GROUPS) delete $("scope-" + group).dataset.taken;
    $("mod-extra").value = extra.length ? JSON.stringify(extra) : "";
    $("more-effects").open = !!extra.length;
  }

  /* The detachment choices (kept: the one chosen, even when no rule of it is listed). */
  function setDetachments(names, value) {
    const sel = $("ctx-detachment");
    const keep = value === undefined ? sel.value : value;
    const all = [...new Set([...names, ...(keep ? [keep] : [])])].sort();
    sel.replaceChildren(node("option", { value: "" }, "any detachment"),
                        ...all.map((n) => node("option", { value: n }, n)));
    sel.value = keep;
  }

  function methodChanged() {
    const mc = $("method").value === "monte-carlo";
    $("trials").disabled = !mc;
    $("seed").disabled = !mc;
  }

  global.TacticaForm = {
    abilityText, b64decode, b64encode, fillForm, grantRow, groupRow, int, keepUnitRules,
    methodChanged, node, readScenario, refreshScopes, setAttackerRef, setDetachments, setGroups,
    setTargetRef, setWeapons, takePendingProfiles, takePendingWargear, weaponRow, weaponState,
    words,
    onChange(fn) { changed = fn; },
  };
})(window);
