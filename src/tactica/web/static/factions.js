/* tactica calculator: the faction-first unit browser and the faction's rules picker.
 * The factions and their units come from /api/factions; a faction's army rules,
 * detachments, stratagems and enhancements (each with its status in the calculator)
 * from /api/factions/{faction}/rules. Ticking a modelled rule puts its name into the
 * scenario's rules in play (calc.js's `chosen`). Used by calc.js as window.TacticaFactions. */
(function (global) {
  "use strict";
  const $ = (id) => document.getElementById(id);
  let all = null;          // [{faction, units}]
  let everyUnit = null;    // the unit list's options as the page gave them
  let shown = null;        // the faction whose rules are shown
  async function getJSON(url) {
    try {
      const r = await fetch(url);
      return r.ok ? await r.json() : null;
    } catch (e) { return null; }
  }
  function node(tag, attrs, text) { return global.TacticaForm.node(tag, attrs, text); }

  /* A faction as players name it, the keyword beside when it differs ("Space Marines ·
   * ADEPTUS ASTARTES (90)"); a faction that belongs to another follows it, marked. */
  function label(f) {
    const words = f.name.toUpperCase() === f.faction ? f.name : `${f.name} · ${f.faction}`;
    return `${f.part_of ? "– " : ""}${words} (${f.units.length})`;
  }

  /* The faction select: choosing one narrows the unit list to its units. */
  async function browse() {
    all = await getJSON("/api/factions");
    if (!all) return;
    const sel = $("attacker-faction");
    sel.replaceChildren(node("option", { value: "" }, "every faction"),
                        ...all.map((f) => node("option", { value: f.faction }, label(f))));
    everyUnit = [...$("unit-names").children].map((o) => o.value);
    sel.addEventListener("change", () => {
      const f = all.find((x) => x.faction === sel.value);
      const names = f ? f.units : everyUnit;
      $("unit-names").replaceChildren(...names.map((n) => node("option", { value: n })));
      $("attacker-unit").placeholder = f ? `one of ${f.units.length} ${f.name} units` : "pick a unit, or type a profile below";
    });
  }

  function ruleRow(r, chosen, changed) {
    const row = node("div", { class: "effect" });
    const label = node("label", { class: "check" });
    const box = node("input", { type: "checkbox", "data-rule": r.name });
    box.checked = chosen.has(r.name);
    box.disabled = r.status !== "modelled";  // the others change no number
    label.append(box, document.createTextNode(" " + r.name));
    const status = r.status === "modelled" ? r.reason : `${r.status}: ${r.reason}`;
    row.append(label, node("span", { class: "meta" }, `${r.cp ? r.cp + "CP · " : ""}${r.kind} — ${status}`));
    box.addEventListener("change", () => {
      if (box.checked) chosen.set(r.name, ""); else chosen.delete(r.name);
      changed();
    });
    return row;
  }
  /* The rules of the first of `keywords` the dataset has rules for, grouped by
   * detachment; `chosen`: rule name -> parameter (calc.js's), `changed`: after a tick. */
  async function showRules(keywords, chosen, changed) {
    const box = $("faction-rules-box");
    for (const k of keywords || []) {
      if (k === shown) return;
      const rules = await getJSON(`/api/factions/${encodeURIComponent(k)}/rules`);
      if (!rules || (!rules.army_rules.length && !rules.detachments.length)) continue;
      shown = k;
      $("faction-name").textContent = rules.name && rules.name.toUpperCase() !== rules.faction
        ? `${rules.name} (${rules.faction})` : (rules.name || k);
      const groups = [];
      if (rules.army_rules.length) {
        const g = node("fieldset", { class: "rule-group" });
        g.append(node("legend", {}, "Army rules"), ...rules.army_rules.map((r) => ruleRow(r, chosen, changed)));
        groups.push(g);
      }
      for (const d of rules.detachments) {
        const g = node("details", { class: "more detachment" });
        const modelled = d.rules.filter((r) => r.status === "modelled").length;
        g.append(node("summary", {}, `${d.name} (${modelled} of ${d.rules.length} in the calculator)`),
                 ...d.rules.map((r) => ruleRow(r, chosen, changed)));
        groups.push(g);
      }
      $("faction-rules").replaceChildren(...groups);
      box.hidden = false;
      return;
    }
    shown = null;
    $("faction-rules").replaceChildren();
    box.hidden = true;
  }
  global.TacticaFactions = { browse, showRules };
})(window);
