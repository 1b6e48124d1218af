/* tactica calculator page: the form is the scenario (weapon lines, target models,
 * context, effects); picking a library unit or preset fills the rows from /api.
 * Calculate posts the scenario to /api/calc and draws the result (results.js). The
 * scenario is kept in the URL fragment (#s=base64url(JSON)) so a result can be shared;
 * pinned results (#p=...) are compared on one chart.
 *
 * A library unit (attacker or target) is sent as a unit reference: the calculator fields
 * it as every other door does (its loadout, wargear, leaders) and picks each weapon's
 * profile against the target, unless a profile is chosen here (one per weapon); the rows
 * then show what it fired. "Edit the weapons by hand" (or editing the target's rows)
 * sends the rows instead.
 *
 * The page never shows a state it does not hold: a failed look-up clears what it would
 * have replaced and says why next to the field; a result is marked stale as soon as an
 * input changes; a phase or rules switch keeps every weapon choice that still exists and
 * says what it dropped. Nothing typed here is evaluated: JSON.parse only.
 *
 * Requests race one way only: each field (the attacker, its wargear, the target, the
 * rules check, the calculation) has one AbortController; asking again aborts the
 * earlier request, and the earlier call, seeing its signal aborted after any await,
 * writes nothing (`fresh`). */
(function () {
  "use strict";
  const C = window.TacticaCharts;
  const F = window.TacticaForm;
  const R = window.TacticaResults;
  const { b64decode, b64encode, int, node, words } = F;
  const $ = (id) => document.getElementById(id);
  const MAX_PINS = 3;
  const PHASE_WORDS = { shooting: "Shooting", fight: "Fight" };
  let effects = [];          // last /api/effects/check answer
  const chosen = new Map();  // named effect -> parameter ("" when none)
  let pins = [];             // {label, custom, scenario, result}
  let last = null;           // {scenario, result}
  let attackerUnit = null;   // the library unit the rows came from
  let handWeapons = false;   // the weapon rows are sent as typed, not the unit reference
  let loadedTarget = null;   // {name, preset, leader}: the library target the rows came from
  let handTarget = false;    // the target rows were edited: sent as typed
  let phaseMemory = {};      // phase -> [{name, selected, count}] of attackerUnit's rows
  const controllers = new Map();  // field -> the AbortController of its latest request
  let checkTimer = null;

  // --- small helpers -----------------------------------------------------------------
  function status(text, kind) {
    const s = $("status");
    s.textContent = text;
    s.dataset.kind = kind || "";
  }
  /* The signal of a field's new request: the field's earlier request is aborted, and
   * its caller sees `signal.aborted` after its awaits (the target and its leader share
   * one field: a leader typed meanwhile supersedes the target's load). */
  function fresh(field) {
    const earlier = controllers.get(field);
    if (earlier) earlier.abort();
    const controller = new AbortController();
    controllers.set(field, controller);
    return controller.signal;
  }
  async function getJSON(url, options) {
    let response;
    try { response = await fetch(url, options); } catch (e) {
      return { ok: false, status: 0, body: null, aborted: e.name === "AbortError" };
    }
    let body = null;
    try { body = await response.json(); } catch (e) { body = null; }
    return { ok: response.ok, status: response.status, body };
  }
  /* The name of a field as the form calls it ("Bolt rifle: AP", "Distance"). */
  function fieldName(loc, scenario) {
    const parts = (loc || []).filter((p) => p !== "body" && p !== "query" && p !== "path");
    if (!parts.length || (parts.length === 1 && parts[0] === "name")) return "";
    const [side, list, k, field] = parts;
    if (side === "attacker" && list === "weapons" && typeof k === "number") {
      const w = scenario && scenario.attacker.weapons[k];
      return `${w ? w.name : "weapon " + (k + 1)}${field ? ": " + field : ""}`;
    }
    if (side === "target" && list === "models" && typeof k === "number") {
      const g = scenario && scenario.target.models[k];
      return `target's ${g ? g.name : "model " + (k + 1)}${field ? ": " + field : ""}`;
    }
    if (side === "context") return R.plain("context." + list);
    if (side === "effects") return "rules and effects";
    if (side === "attacker" && list === "weapons") return "weapons";
    if (side === "models") return "models";
    return parts.join(" ");
  }
  function message(body, scenario) {
    if (!body) return "the server did not answer: check the connection and try again";
    if (typeof body.detail === "string") return R.plain(body.detail);
    if (Array.isArray(body.detail)) {
      return body.detail.map((d) => {
        const where = fieldName(d.loc, scenario);
        return R.plain(where ? `${where}: ${d.msg}` : d.msg);
      }).join("\n");
    }
    return JSON.stringify(body);
  }
  /* Notes under a field: [{text, kind, actions: [[label, fn]]}]. */
  function setNotes(list, items) {
    list.replaceChildren(...items.map((it) => {
      const li = node("li", { class: it.kind ? it.kind + "-text" : "" });
      if (it.link) li.appendChild(node("a", { href: it.link }, it.text));
      else li.appendChild(document.createTextNode(it.text));
      for (const [label, fn] of it.actions || []) {
        const b = node("button", { type: "button", class: "secondary suggestion" }, label);
        b.addEventListener("click", fn);
        li.append(" ", b);
      }
      return li;
    }));
  }
  function suggestions(body, input, load) {
    const d = body && Array.isArray(body.detail) ? body.detail[0] : null;
    return ((d && d.suggestions) || []).slice(0, 4).map((name) => [name, () => {
      $(input).value = name;
      load();
    }]);
  }

  // --- stale results ------------------------------------------------------------------
  function edited() {
    if (last && !$("result").hidden && $("result").dataset.state === "done") {
      $("result").dataset.stale = "true";
      $("pin").disabled = true;
      status("The inputs changed: this result is for the earlier inputs. Calculate again.", "stale");
    }
    changed();
  }

  // --- units and targets from the library ------------------------------------------------
  /* The units that can lead `name`, as the choices of a Leader field's list. */
  async function fillLeaders(list, name, signal) {
    const r = name ? await getJSON(`/api/units/${encodeURIComponent(name)}/leaders`, { signal }) : { ok: false };
    if (signal && signal.aborted) return [];
    $(list).replaceChildren(...(r.ok ? r.body : []).map((n) => node("option", { value: n })));
    return r.ok ? r.body : [];
  }
  function clearAttacker() {
    attackerUnit = null;
    handWeapons = false;
    $("profiles").replaceChildren();
    $("profiles-box").hidden = true;
    $("wargear").hidden = true;
    $("wargear-controls").replaceChildren();
    fieldedMode();
    F.keepUnitRules("attacker", {});
    phaseMemory = {};
    $("attacker-name").value = "attacker";
    $("attacker-keywords").value = "";
    $("ctx-attacker-toughness").value = "";
    F.setWeapons([]);
    for (const o of $("phase").options) o.textContent = PHASE_WORDS[o.value];
  }
  /* Apply remembered choices to the new rows; the choices that have no row are dropped. */
  function restore(memory, counts = true) {
    const rows = F.weaponState();
    const byName = new Map(rows.map((r) => [r.name, r]));
    const dropped = [];
    for (const m of memory || []) {
      const r = byName.get(m.name);
      if (!r) { if (m.selected) dropped.push(`${m.name} ×${m.count}`); continue; }
      r.row.querySelector(".f-use").checked = m.selected;
      if (counts) r.row.querySelector(".f-count").value = m.count;
    }
    return dropped;
  }
  async function attackerChoice(name, phase, models, signal) {
    const q = new URLSearchParams({ phase, rules: $("rules").value });
    if (models) q.set("models", models);
    const target = $("target-unit").value.trim();
    if (target) q.set("target", target);
    return getJSON(`/api/units/${encodeURIComponent(name)}/attacker?${q}`, { signal });
  }
  /* Fill the attacker from the library. `how`: "pick" (a new unit), "phase" or "rules"
   * (a switch: keep what is still valid), "models" (a new model count). */
  async function loadAttacker(how) {
    const name = $("attacker-unit").value.trim();
    const notes = $("attacker-notes");
    const signal = fresh("attacker");
    if (!name) { clearAttacker(); setNotes(notes, []); edited(); return; }
    const phase = $("phase").value;
    const other = phase === "fight" ? "shooting" : "fight";
    const keep = how !== "pick";
    const before = keep ? F.weaponState().map(({ name: n, selected, count }) => ({ name: n, selected, count })) : [];
    if (how === "phase") phaseMemory[other] = before;  // the rows were of the other phase
    const models = keep ? $("attacker-models").value : "";
    // an answer comes too late once another load has started, or once the player has
    // typed another unit's name since this one asked (leaving the field loads that one):
    // it never writes over what they typed
    const late = () => signal.aborted || $("attacker-unit").value.trim() !== name;
    let [r, r2] = await Promise.all([attackerChoice(name, phase, models, signal),
                                     attackerChoice(name, other, "", signal)]);
    if (late()) return;
    const items = [];
    if (!r.ok && r.status === 422 && models) {  // the model count does not fit this datasheet
      items.push({ text: message(r.body).replace(/^models: /, "") + ": the smallest unit is used", kind: "warn" });
      r = await attackerChoice(name, phase, "", signal);
      if (late()) return;
    }
    if (!r.ok) {
      clearAttacker();
      setNotes(notes, [{ text: message(r.body), kind: "error",
                         actions: suggestions(r.body, "attacker-unit", () => loadAttacker("pick")) }]);
      notes.scrollIntoView({ block: "nearest" });
      edited();
      return;
    }
    const c = r.body;
    const unitChanged = attackerUnit !== c.unit;
    F.keepUnitRules("attacker", { abilities: c.abilities });
    attackerUnit = c.unit;
    if (unitChanged) { phaseMemory = {}; handWeapons = false; }
    const otherRows = r2.ok ? r2.body.weapons.length : 0;
    if (!c.weapons.length && otherRows && how === "pick") {
      // a unit with weapons for one phase only: offer that phase
      $("phase").value = other;
      return loadAttacker("pick");
    }
    $("attacker-unit").value = c.unit;
    $("attacker-name").value = c.unit;
    $("attacker-models").value = c.models;
    $("attacker-models").min = c.min_models;
    $("attacker-models").max = c.max_models;
    $("attacker-models").dataset.previous = c.models;
    $("attacker-keywords").value = c.keywords.join(", ");
    $("ctx-attacker-toughness").value = c.attacker_toughness ?? "";
    for (const o of $("phase").options) {
      const rows = o.value === phase ? c.weapons.length : otherRows;
      o.textContent = PHASE_WORDS[o.value] + (rows ? "" : " (no weapons)");
    }
    F.setWeapons(c.weapons);
    const profilesKept = how === "pick" ? [] : (how === "link" ? F.takePendingProfiles() : profileSpecs());
    showProfiles(handWeapons ? [] : c.weapons, profilesKept);  // typed rows: no choices
    const wargearKept = how === "pick" ? [] : (how === "link" ? F.takePendingWargear() : wargearSpecs());
    if ((how === "phase" || how === "rules" || how === "models") && (handWeapons || how === "phase")) {
      const memory = how === "phase" ? phaseMemory[phase] : before;
      const dropped = memory ? restore(memory, how !== "models") : [];
      if (how === "phase") {
        const kept = before.filter((w) => w.selected).map((w) => `${w.name} ×${w.count}`);
        if (kept.length) items.push({ text: `${PHASE_WORDS[phase]} phase: ${kept.join(", ")} kept for the ${PHASE_WORDS[other]} phase`, kind: "" });
      } else if (dropped.length) {
        items.push({ text: `Not on the ${c.rules} datasheet, dropped: ${dropped.join(", ")}`, kind: "warn" });
      }
    }
    if (!c.weapons.length) {
      const actions = otherRows ? [[`Use the ${PHASE_WORDS[other]} phase`, () => { $("phase").value = other; loadAttacker("phase"); }]] : [];
      items.push({ text: `${c.unit} has no ${phase === "fight" ? "melee" : "ranged"} weapons`, kind: "error", actions });
    }
    if (c.rules !== $("rules").value) {
      items.push({ text: `${c.unit} has no ${$("rules").value} datasheet: its ${c.rules} datasheet is used`, kind: "warn" });
    }
    for (const n of c.notes) items.push({ text: R.plain(n) });
    if (c.damaged) items.push({ text: "Damaged " + c.damaged });
    items.push({ text: `${c.unit} datasheet (${c.rules})`, link: `/units/${encodeURIComponent(c.unit)}?rules=${c.rules}` });
    setNotes(notes, items);
    edited();
    window.TacticaFactions.showRules(c.factions, chosen, edited);
    const [leaders] = await Promise.all([fillLeaders("attacker-leaders", c.unit, signal),
                                         showWargear(c.unit, c.rules, wargearKept, signal)]);
    if (signal.aborted) return;
    fieldedMode();
    if (!leaders.length) return;
    notes.appendChild(node("li", { class: "leaders" },
      `Can be led by: ${leaders.slice(0, 8).join(", ")}${leaders.length > 8 ? ", …" : ""}`));
  }
  /* The datasheet's wargear options as controls (one per option, from the units core via
   * /api/units/{name}/wargear); `pending`: the choices to set (a link's). */
  async function showWargear(unit, rules, pending, signal) {
    const box = $("wargear");
    const q = new URLSearchParams({ rules });
    if ($("attacker-models").value) q.set("models", $("attacker-models").value);
    const r = await getJSON(`/api/units/${encodeURIComponent(unit)}/wargear?${q}`, { signal });
    if (signal.aborted) return;
    const options = r.ok ? r.body.options : [];
    $("wargear-controls").replaceChildren(...options.map((o, k) => wargearControl(o, k)));
    box.hidden = !options.length;
    for (const spec of pending || []) {  // "NAME + NAME:N" -> the control offering it
      const [, what, n] = /^(.*?)(?::(\d+))?$/.exec(spec);
      const sel = [...document.querySelectorAll(".wg-choice")].find(
        (x) => !x.value && [...x.options].some((o) => o.value === what.trim()));
      if (!sel) continue;
      sel.value = what.trim();
      sel.closest(".wg-option").querySelector(".wg-count").value = n || 1;
    }
    if (r.ok) await checkWargear(null);
  }
  function wargearControl(o, k) {
    const row = node("div", { class: "wg-option" });
    const sel = node("select", { class: "wg-choice", id: `wg-${k}`, "aria-label": o.text });
    sel.appendChild(node("option", { value: "" }, "as the datasheet has it"));
    for (const c of o.choices) sel.appendChild(node("option", { value: c }, c));
    const count = node("input", { class: "wg-count", type: "number", min: "1", value: "1",
                                  inputmode: "numeric", "aria-label": `${o.text}: how many models` });
    if (o.most > 0) count.max = String(o.most);
    const label = node("label", { class: "grow", for: `wg-${k}` }, o.text);
    const models = node("label", { class: "num" }, "Models ");
    models.appendChild(count);
    const error = node("p", { class: "wg-error error-text", role: "status" });
    error.hidden = true;
    row.append(label, sel, models, error);
    for (const input of [sel, count]) input.addEventListener("change", () => checkWargear(row));
    return row;
  }
  /* One control per weapon with several profiles: the calculator's pick against the
   * target (the default) or one profile, never two at once. `kept`: profile names to set. */
  function showProfiles(rows, kept) {
    const groups = new Map();
    for (const w of rows) if (w.weapon) groups.set(w.weapon, [...(groups.get(w.weapon) || []), w.name]);
    const controls = [];
    let k = 0;
    for (const [weapon, names] of groups) {
      if (names.length < 2) continue;
      const id = `profile-${k++}`;
      const row = node("div", { class: "fields profile-choice" });
      const sel = node("select", { id, class: "profile", "data-weapon": weapon });
      sel.appendChild(node("option", { value: "" }, "the one that does most against the target"));
      for (const n of names) sel.appendChild(node("option", { value: n }, n));
      sel.value = names.find((n) => (kept || []).includes(n)) || "";
      sel.addEventListener("change", edited);
      const label = node("label", { class: "grow", for: id }, weapon);
      label.appendChild(sel);
      row.append(label, node("span", { class: "hint picked", "data-weapon": weapon }));
      controls.push(row);
    }
    $("profiles").replaceChildren(...controls);
    $("profiles-box").hidden = !controls.length;
  }
  function profileSpecs() {
    return [...document.querySelectorAll("select.profile")].map((s) => s.value).filter(Boolean);
  }
  /* After a result: which profile the calculator used, next to each weapon's control. */
  function showPicked(result) {
    const used = new Set(((result.resolved || {}).attacker || []).map((w) => w.name));
    for (const sel of document.querySelectorAll("select.profile")) {
      const names = [...sel.options].map((o) => o.value).filter(Boolean);
      const fired = names.filter((n) => used.has(n));
      const span = document.querySelector(`.picked[data-weapon="${CSS.escape(sel.dataset.weapon)}"]`);
      if (span) span.textContent = fired.length ? `used: ${fired.join(", ")}` : "not used";
    }
  }
  /* The wargear chosen, as a unit reference writes it ("NAME + NAME:N"). */
  function wargearSpecs() {
    return [...document.querySelectorAll(".wg-option")].map((row) => {
      const v = row.querySelector(".wg-choice").value;
      const n = int(row.querySelector(".wg-count").value) || 1;
      return v ? `${v}:${n}` : null;
    }).filter(Boolean);
  }
  function leaderRef() {
    if (!$("attacker-leader-fielded").checked) return [];
    const typed = words($("ctx-led-by").value);
    const listed = new Set([...$("attacker-leaders").children].map((o) => o.value));
    return typed.length && typed.every((n) => listed.has(n)) ? typed : [];
  }
  /* The attacker as a unit reference: a library unit, unless its weapons are edited by
   * hand. Its leaders (those that can lead it) join with their models and weapons. */
  function attackerRef() {
    if (!attackerUnit || handWeapons) return null;
    const ref = { unit: attackerUnit, models: int($("attacker-models").value) || null,
                  wargear: wargearSpecs(), led_by: leaderRef(), profiles: profileSpecs() };
    if (!ref.models) delete ref.models;
    return ref;
  }
  /* The target as a unit reference: a preset or library unit whose rows were not edited. */
  function targetRef() {
    if (!loadedTarget || handTarget) return null;
    const ref = { unit: loadedTarget.name };
    const n = int($("target-models").value);
    if (typeof n === "number") ref.models = n;
    if (loadedTarget.leader) ref.led_by = [loadedTarget.leader];
    return ref;
  }
  function fieldedMode() {
    const on = !!attackerRef();
    $("weapons").inert = on;
    $("weapons").classList.toggle("fielded", on);
    $("add-weapon").disabled = on;
    $("fielded-note").hidden = !on;
    $("hand-weapons").hidden = !attackerUnit;
    $("hand-weapons").textContent = on ? "Edit the weapons by hand" : "Use the datasheet's weapons";
    // the datasheet's choices are the unit reference's: not shown while the rows are typed
    $("wargear").hidden = !on || !$("wargear-controls").children.length;
    $("profiles-box").hidden = !on || !$("profiles").children.length;
  }
  function handEdit() {
    handWeapons = !handWeapons;
    if (handWeapons) {
      showProfiles([], []);
      fieldedMode();
      edited();
    } else {
      loadAttacker("models");  // the datasheet's rows again
    }
  }
  /* Ask the core whether the choices field the unit; its refusal goes next to `row`. */
  async function checkWargear(row) {
    const signal = fresh("wargear");
    document.querySelectorAll(".wg-error").forEach((p) => { p.hidden = true; p.textContent = ""; });
    fieldedMode();
    if (!attackerUnit) return;
    const q = new URLSearchParams({ rules: $("rules").value });
    if ($("attacker-models").value) q.set("models", $("attacker-models").value);
    for (const spec of wargearSpecs()) q.append("choice", spec);
    const r = await getJSON(`/api/units/${encodeURIComponent(attackerUnit)}/wargear?${q}`, { signal });
    if (signal.aborted || !r.ok) return;
    $("wargear-loadout").replaceChildren(...r.body.loadout.map((t) => node("li", {}, t)));
    if (r.body.error) {
      const at = row || document.querySelector(".wg-option");
      const p = at && at.querySelector(".wg-error");
      if (p) { p.textContent = r.body.error; p.hidden = false; }
    }
    if (row) edited();
  }
  function attackerModelsChanged(event) {
    const before = Number(event.target.dataset.previous || 0);
    let now = int(event.target.value);
    const note = $("models-note");
    note.hidden = true;
    if (attackerUnit && typeof now === "number") {  // within the datasheet's range
      const low = Number(event.target.min || 1);
      const high = Number(event.target.max || 200);
      if (now < low || now > high) {
        const kept = Math.min(Math.max(now, low), high);
        const size = low === high ? `${low} model${low > 1 ? "s" : ""}` : `${low}-${high} models`;
        note.textContent = `${attackerUnit} has ${size}: ${now} is not allowed, ${kept} used`;
        note.hidden = false;
        now = kept;
        event.target.value = kept;
      }
    }
    if (attackerUnit && typeof now === "number") {  // the core splits the models again
      event.target.dataset.previous = event.target.value;
      loadAttacker("models");
      return;
    }
    if (typeof now === "number" && before) {
      for (const row of $("weapons").children) {
        const count = row.querySelector(".f-count");
        if (Number(count.value) === before) count.value = now;
      }
    }
    event.target.dataset.previous = event.target.value;
    edited();
  }
  function clearTarget() {
    loadedTarget = null;
    handTarget = false;
    F.keepUnitRules("target", {});
    $("target-leaders").replaceChildren();
    $("target-name").value = "target";
    $("target-keywords").value = "";
    $("target-dr").value = 0;
    $("target-half").checked = false;
    F.setGroups([]);
  }
  async function loadTarget(withModels) {
    const name = $("target-unit").value.trim();
    const notes = $("target-notes");
    if (!name) return;
    const signal = fresh("target");
    const q = new URLSearchParams({ rules: $("rules").value });
    if (withModels && $("target-models").value) q.set("models", $("target-models").value);
    // too late once another load has started or another name is typed (``loadAttacker``)
    const late = () => signal.aborted || $("target-unit").value.trim() !== name;
    let r = await getJSON(`/api/targets/${encodeURIComponent(name)}?${q}`, { signal });
    if (late()) return;
    const items = [];
    if (!r.ok && r.status === 422 && q.has("models")) {
      items.push({ text: message(r.body).replace(/^models: /, "") + ": the smallest unit is used", kind: "warn" });
      q.delete("models");
      r = await getJSON(`/api/targets/${encodeURIComponent(name)}?${q}`, { signal });
      if (late()) return;
    }
    if (!r.ok) {
      clearTarget();
      setNotes(notes, [{ text: message(r.body), kind: "error",
                         actions: suggestions(r.body, "target-unit", () => loadTarget(false)) }]);
      notes.scrollIntoView({ block: "nearest" });
      edited();
      return;
    }
    const t = r.body;
    F.keepUnitRules("target", t);
    handTarget = false;
    $("target-name").value = t.name;
    $("target-keywords").value = t.keywords.join(", ");
    $("target-dr").value = t.damage_reduction;
    $("target-half").checked = t.half_damage;
    F.setGroups(t.models);
    $("target-models").value = t.models.reduce((n, g) => n + g.count, 0);
    $("target-name").dataset.unit = t.name;
    setNotes(notes, items);
    const preset = [...$("target-names").options].some(
      (o) => o.textContent && o.value.toLowerCase() === name.toLowerCase());
    loadedTarget = { name: preset ? name : t.name, typed: name, preset, leader: null };
    await fillLeaders("target-leaders", preset ? "" : t.name, signal);  // a preset leads no one
    // a leader typed meanwhile has loaded (or is loading) itself: not a second time, which
    // would take its models away again while the page says they are there
    if (signal.aborted) return;
    if ($("target-leader").value.trim()) await loadTargetLeader();
    edited();
  }
  /* The target's rows are edited: they are sent as typed, and a library unit's name no
   * longer fits them: the target is renamed "custom" (unless its name is what was typed). */
  function handEditTarget(named) {
    if (!handTarget && loadedTarget && !named) $("target-name").value = "custom";
    handTarget = true;
  }
  /* A leader attached to the target: its models join the target's as their own group. */
  async function loadTargetLeader() {
    const name = $("target-leader").value.trim();
    const signal = fresh("target");
    for (const row of [...$("target-groups").children]) if (row.dataset.leader) row.remove();
    const base = $("target-name").dataset.unit || $("target-name").value;
    $("target-name").value = base;
    if (loadedTarget) loadedTarget.leader = null;
    const notes = $("target-notes");
    for (const li of [...notes.children]) if (li.dataset.leader) li.remove();
    if (!name) { edited(); return; }
    const q = new URLSearchParams({ rules: $("rules").value, models: "1" });
    const r = await getJSON(`/api/targets/${encodeURIComponent(name)}?${q}`, { signal });
    if (signal.aborted) return;
    if (!r.ok) {
      const li = node("li", { class: "error-text", "data-leader": "1" }, "Leader: " + message(r.body));
      notes.appendChild(li);
      edited();
      return;
    }
    const leader = r.body;
    if (loadedTarget && !loadedTarget.preset) loadedTarget.leader = leader.name;
    else handTarget = true;  // a preset leads no one: its rows go as they are
    for (const g of leader.models) {
      const row = F.groupRow({ ...g, character: true });
      row.dataset.leader = leader.name;
      $("target-groups").appendChild(row);
    }
    $("target-name").value = `${base} led by ${leader.name}`;
    const listed = [...$("target-leaders").children].map((o) => o.value);
    if (!listed.includes(leader.name)) {
      notes.appendChild(node("li", { class: "warn-text", "data-leader": "1" },
                             `${leader.name} is not listed as a leader of ${base}: attached anyway`));
    }
    edited();
  }

  // --- named effects ----------------------------------------------------------------------
  function changed() {
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkEffects, 200);
    F.refreshScopes();
    distanceHint();
    rollsCount();
  }
  function rollsCount() {
    let s;
    try { s = F.readScenario(chosen); } catch (e) { $("rolls-count").textContent = "(typed effects: not valid)"; return; }
    const n = s.effects.filter((e) => typeof e !== "string").length;
    $("rolls-count").textContent = n ? `(${n} set)` : "(none set)";
    if (n) $("rolls-box").open = true;
  }
  function distanceHint() {
    let s;
    try { s = F.readScenario(null); } catch (e) { return; }
    const text = R.distanceNote(s);
    $("distance-note").textContent = text || "";
    $("distance-note").hidden = !text;
  }
  async function checkEffects() {
    const signal = fresh("check");
    let s;
    try { s = F.readScenario(null); } catch (e) { return; }
    if (!s.attacker.weapons.length) {
      s.attacker.weapons = [{ name: "probe", A: "1", skill: 4, S: 4, D: "1",
                              range: s.phase === "fight" ? "Melee" : 24 }];
    }
    if (!s.target.models.length) s.target.models = [{ T: 4, Sv: 4, W: 1 }];
    const r = await getJSON("/api/effects/check", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(s), signal });
    if (signal.aborted || !r.ok) return;
    effects = r.body;
    renderEffects();
  }
  function effectRow(e) {
    const row = node("div", { class: "effect" });
    const label = node("label", { class: "check" });
    const box1 = node("input", { type: "checkbox", "data-effect": e.name });
    box1.checked = chosen.has(e.name);
    label.append(box1, document.createTextNode(" " + e.name));
    const meta = node("span", { class: "meta" },
                      R.plain(`${e.cp ? e.cp + "CP · " : ""}${e.kind} · ${e.source} — ${e.terms}`));
    row.append(label, meta);
    let sel = null;
    if (e.parameter) {
      sel = node("select", { "aria-label": e.name + " option", class: "param" });
      sel.appendChild(node("option", { value: "" }, "—"));
      for (const opt of e.parameter.split("|").map((x) => x.trim())) {
        sel.appendChild(node("option", { value: opt }, opt));
      }
      sel.value = chosen.get(e.name) || "";
      sel.addEventListener("change", () => { if (chosen.has(e.name)) chosen.set(e.name, sel.value); });
      row.appendChild(sel);
    }
    box1.addEventListener("change", () => {
      if (box1.checked) chosen.set(e.name, sel ? sel.value : ""); else chosen.delete(e.name);
    });
    return row;
  }
  function renderEffects() {
    // a name read from a link may hold a colon of its own ("Damaged: 1-8 wounds remaining")
    for (const [key, param] of [...chosen]) {
      if (!param || effects.some((e) => e.name === key)) continue;
      const whole = effects.find((e) => e.name === `${key}: ${param}`);
      if (whole) { chosen.delete(key); chosen.set(whole.name, ""); }
    }
    const box = $("effects");
    const other = $("effects-other");
    box.replaceChildren();
    other.replaceChildren();
    const dropped = [];
    const bound = (e) => ["stratagem", "detachment rule", "enhancement"].includes(e.kind) && e.source !== "Core";
    F.setDetachments(effects.filter(bound).map((e) => e.source));
    const detachment = $("ctx-detachment").value;
    let hidden = 0;
    for (const e of effects) {
      if (detachment && bound(e) && e.source !== detachment) {  // another detachment's rule
        if (chosen.has(e.name)) { chosen.delete(e.name); dropped.push(`${e.name} (${e.source})`); }
        hidden += 1;
        continue;
      }
      if (!e.holds) {
        const why = e.failures.map((f) => R.plain(f.replace(e.name + ": ", ""))).join("; ");
        if (chosen.has(e.name)) { chosen.delete(e.name); dropped.push(`${e.name} (${why})`); }
        const li = node("li", {});
        li.append(node("a", { href: "/rules/" + encodeURIComponent(e.name) }, e.name),
                  document.createTextNode(" — " + why));
        other.appendChild(li);
        continue;
      }
      box.appendChild(effectRow(e));
    }
    if (!box.children.length) box.appendChild(node("p", { class: "hint" }, "None for this attack."));
    if (hidden) box.appendChild(node("p", { class: "hint" }, `${hidden} rules of other detachments not shown.`));
    $("effects-other-count").textContent = String(other.children.length);
    const note = $("effects-dropped");
    note.textContent = dropped.length ? "No longer in play, unticked: " + dropped.join("; ") : "";
    note.hidden = !dropped.length;
  }

  // --- calculate ----------------------------------------------------------------------------
  function markInvalid(body) {
    if (!body || !Array.isArray(body.detail)) return;
    const rows = [...$("weapons").children].filter((r) => r.querySelector(".f-use").checked);
    for (const d of body.detail) {
      const loc = (d.loc || []).filter((p) => p !== "body");
      let input = null;
      if (loc[0] === "attacker" && loc[1] === "weapons" && typeof loc[2] === "number") {
        const row = rows[loc[2]];
        input = row && (row.querySelector(".f-" + (loc[3] || "name")) || row.querySelector(".f-name"));
      } else if (loc[0] === "target" && loc[1] === "models" && typeof loc[2] === "number") {
        const row = $("target-groups").children[loc[2]];
        input = row && (row.querySelector(".f-" + (loc[3] || "name")) || row.querySelector(".f-name"));
      } else if (loc[0] === "context" && loc[1] === "distance") input = $("ctx-distance");
      else if (loc[0] === "trials") input = $("trials");
      if (input) input.classList.add("invalid");
    }
  }
  function narrow() { return window.innerWidth < 900; }
  function collapseForm(on) {
    const form = $("scenario-form");
    form.classList.toggle("collapsed", on);
    $("form-summary").hidden = !on;
    if (on && last) $("form-summary-text").textContent = R.sentence(last.scenario);
  }
  /* A unit typed but not loaded yet (Calculate or Enter straight after typing) is loaded
   * first: the result is never the earlier unit's. */
  async function settle() {
    const a = $("attacker-unit").value.trim();
    if (a ? a !== attackerUnit : attackerUnit) await loadAttacker("pick");
    const t = $("target-unit").value.trim();
    if (t && (!loadedTarget || t !== loadedTarget.typed) && t !== (loadedTarget || {}).name) {
      await loadTarget(false);
    }
  }
  async function calculate() {
    document.querySelectorAll(".invalid").forEach((n) => n.classList.remove("invalid"));
    const signal = fresh("calc");
    if (last) $("result").dataset.state = "loading";  // never the earlier result as current
    status("Calculating…");
    await settle();
    if (signal.aborted) return;
    let s;
    try { s = F.readScenario(chosen, true); } catch (e) { return showError(e.message); }
    if (s.attacker.weapons && !s.attacker.weapons.length) {
      return showError("No weapon is picked: pick a unit with weapons for this phase, or tick or add a weapon profile.");
    }
    if (!s.target.unit && !s.target.models.length) return showError("No target: pick a preset or a unit, or add a model group.");
    $("result").dataset.state = "loading";
    status("Calculating…");
    $("calculate").disabled = true;
    const r = await getJSON("/api/calc", {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(s), signal });
    if (signal.aborted) return;
    $("calculate").disabled = false;
    if (!r.ok) {
      markInvalid(r.body);
      $("result").dataset.state = "error";
      return showError(message(r.body, s));
    }
    $("error").hidden = true;
    last = { scenario: s, result: r.body };
    if (s.attacker.unit && r.body.resolved) {  // the rows show what the calculator fired
      F.setWeapons(r.body.resolved.attacker.map((w) => ({ ...w, A: String(w.A), D: String(w.D),
        abilities: (w.abilities || []).map(F.abilityText), selected: true })));
      showPicked(r.body);
    }
    R.render(r.body, R.asFielded(s, r.body));
    writeUrl();
    $("pin").disabled = false;
    status(`${r.body.method === "exact" ? "Exact" : "Monte Carlo"} result, ${r.body.rules} rules.`, "ok");
    delete $("result").dataset.stale;
    $("result").dataset.state = "done";
    if (narrow()) {
      collapseForm(true);
      $("scenario-form").scrollIntoView({ block: "start" });
    }
  }
  function showError(text) {
    const box = $("error");
    box.textContent = text;
    box.hidden = false;
    if (last) $("result").dataset.state = "error";
    status("Not calculated: see the message below.", "error");
  }

  // --- compare -------------------------------------------------------------------------------
  function relabel() {
    const labels = R.pinLabels(pins.map((p) => p.scenario));
    pins.forEach((p, k) => { if (!p.custom) p.label = labels[k]; });
  }
  function renderPins() {
    const list = $("pins");
    list.replaceChildren();
    pins.forEach((p, k) => {
      const li = node("li", { class: "pin" });
      const name = node("input", { class: "pin-name", "aria-label": `name of pin ${k + 1}` });
      name.value = p.label;
      name.addEventListener("change", () => {
        p.label = name.value.trim() || p.label;
        p.custom = !!name.value.trim();
        if (!p.custom) relabel();
        renderPins();
        writeUrl();
      });
      li.append(node("span", { class: "swatch s" + k }), name,
                node("span", { class: "meta" }, ` ${p.result.models_destroyed.mean.toFixed(2)} models, ${p.result.damage.mean.toFixed(2)} damage`));
      const del = node("button", { type: "button", class: "icon del", title: "unpin", "aria-label": "unpin " + p.label }, "×");
      del.addEventListener("click", () => { pins.splice(k, 1); relabel(); renderPins(); writeUrl(); });
      li.appendChild(del);
      list.appendChild(li);
    });
    const box = $("chart-compare");
    box.replaceChildren();
    if (!pins.length) return;
    const metric = $("compare-metric").value;
    const series = pins.map((p) => ({ label: p.label, values: C.atLeast(p.result[metric].pmf) }));
    const to = metric === "models_destroyed"
      ? Math.max(...pins.map((p) => R.asFielded(p.scenario, p.result).target.models.reduce((n, g) => n + (g.count || 1), 0)))
      : undefined;
    C.lineChart(box, series, { title: "compare", from: 1, to,
      xTitle: metric === "damage" ? "at least N damage" : "at least N models destroyed", yTitle: "P(at least)" });
  }
  async function addPin(scenario, result, label) {
    if (pins.length >= MAX_PINS) {
      status(`At most ${MAX_PINS} results can be compared: unpin one first.`, "warn");
      return;
    }
    if (!result) {
      const r = await getJSON("/api/calc", { method: "POST", headers: { "content-type": "application/json" },
                                             body: JSON.stringify(scenario) });
      if (!r.ok) return;
      result = r.body;
    }
    pins.push({ label: label || "", custom: !!label, scenario, result });
    relabel();
    renderPins();
  }

  // --- URL ---------------------------------------------------------------------------------
  function writeUrl() {
    const parts = [];
    if (last) parts.push("s=" + b64encode(last.scenario));
    if (pins.length) {
      parts.push("p=" + b64encode(pins.map((p) => (p.custom ? { l: p.label, s: p.scenario } : { s: p.scenario }))));
    }
    history.replaceState(null, "", location.pathname + (parts.length ? "#" + parts.join("&") : ""));
  }
  async function readUrl() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const query = new URLSearchParams(location.search);
    const encoded = hash.get("s") || query.get("s");
    try {
      const pinned = hash.get("p");
      if (pinned) for (const p of b64decode(pinned).slice(0, MAX_PINS)) await addPin(p.s, null, p.l);
      if (encoded) {
        const linked = b64decode(encoded);
        F.fillForm(linked, chosen);
        attackerUnit = $("attacker-unit").value || null;
        handWeapons = !!(attackerUnit && linked.attacker && !linked.attacker.unit);  // rows as sent
        const t = linked.target || {};
        loadedTarget = t.unit ? null : { name: $("target-unit").value, typed: $("target-unit").value,
                                         preset: false, leader: null };
        handTarget = !t.unit;
        if (linked.target && linked.target.unit) await loadTarget(true);
        if (linked.attacker && linked.attacker.unit) await loadAttacker("link");
        else if (attackerUnit) {  // typed rows of a library unit: its faction's rules still offered
          const r = await attackerChoice(attackerUnit, $("phase").value, "");
          if (r.ok) await window.TacticaFactions.showRules(r.body.factions, chosen, edited);
        }
        await checkEffects();
        await calculate();
        return;
      }
    } catch (e) {
      showError("The link's scenario could not be read: " + e.message);
      return;
    }
    if (query.get("rules")) $("rules").value = query.get("rules");
    $("attacker-unit").value = query.get("attacker") || "";
    $("target-unit").value = query.get("target") || "meq";
    if ($("attacker-unit").value) await loadAttacker("pick");
    else F.setWeapons([{ name: "Bolt rifle", count: 10, range: 24, A: "2", skill: 3, S: 4, AP: -1,
                       D: "1", abilities: ["Heavy"], selected: true }]);
    await loadTarget(false);
  }

  // --- wiring -------------------------------------------------------------------------------
  function share() {
    if (!last) { status("Calculate first: the link holds the scenario.", "warn"); return; }
    writeUrl();
    const url = location.href;
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(() => status("Link copied.", "ok"),
                                               () => status("Link: " + url, "ok"));
    } else {
      status("Link: " + url, "ok");
    }
  }
  function init() {
    F.onChange(edited);
    F.setAttackerRef(attackerRef);
    F.setTargetRef(targetRef);
    $("hand-weapons").addEventListener("click", handEdit);
    $("weapons").addEventListener("change", (e) => {  // one profile of a weapon at a time
      const row = e.target.closest(".wrow");
      if (!e.target.classList.contains("f-use") || !e.target.checked || !row.dataset.weapon) return;
      for (const other of $("weapons").querySelectorAll(".wrow")) {
        if (other !== row && other.dataset.weapon === row.dataset.weapon) other.querySelector(".f-use").checked = false;
      }
    });
    if (!narrow()) $("rolls-box").open = true;
    const form = $("scenario-form");
    form.addEventListener("submit", (e) => { e.preventDefault(); calculate(); });
    form.addEventListener("input", (e) => {
      if (e.target.closest("#effects")) {
        if (last && $("result").dataset.state === "done") edited();
        return;
      }
      if (e.target.closest("#target-groups") || ["target-dr", "target-half", "target-keywords",
                                                   "target-name"].includes(e.target.id)) {
        handEditTarget(e.target.id === "target-name");  // the target's rows as typed
      }
      edited();  // typing a unit's name marks the result stale at once
    });
    $("attacker-unit").addEventListener("change", () => loadAttacker("pick"));
    $("attacker-models").addEventListener("change", (e) => { attackerModelsChanged(e); checkWargear(null); });
    $("ctx-led-by").addEventListener("change", () => {
      // a leader that can lead the unit joins it (its models and weapons): ticked for you
      const typed = words($("ctx-led-by").value);
      const listed = new Set([...$("attacker-leaders").children].map((o) => o.value));
      if (attackerUnit && !handWeapons) {
        $("attacker-leader-fielded").checked = typed.length > 0 && typed.every((n) => listed.has(n));
      }
      fieldedMode();
      edited();
    });
    $("attacker-leader-fielded").addEventListener("change", fieldedMode);
    $("attacker-models").addEventListener("focus", (e) => { e.target.dataset.previous = e.target.value; });
    $("phase").addEventListener("change", () => (attackerUnit ? loadAttacker("phase") : edited()));
    $("rules").addEventListener("change", () => {
      if (attackerUnit) loadAttacker("rules");
      if ($("target-unit").value) loadTarget(true);
      edited();
    });
    $("target-unit").addEventListener("change", () => loadTarget(false));
    $("target-models").addEventListener("change", () => loadTarget(true));
    $("target-leader").addEventListener("change", loadTargetLeader);
    $("method").addEventListener("change", F.methodChanged);
    $("add-weapon").addEventListener("click", () => {
      const melee = $("phase").value === "fight";
      $("weapons").appendChild(F.weaponRow({ name: "weapon", count: int($("attacker-models").value) || 1,
        range: melee ? "Melee" : 24, A: "1", skill: 3, S: 4, AP: 0, D: "1", abilities: [] }, true));
      edited();
    });
    $("target-groups").addEventListener("click", (e) => { if (e.target.closest(".del")) handEditTarget(false); });
    $("add-group").addEventListener("click", () => {
      handEditTarget(false);
      $("target-groups").appendChild(F.groupRow({ name: "model", count: 1, T: 4, Sv: 3, W: 2 }));
      edited();
    });
    $("add-grant").addEventListener("click", () => {
      $("grants").appendChild(F.grantRow("", ""));
      $("grants").lastChild.querySelector("input").focus();
    });
    $("edit-form").addEventListener("click", () => { collapseForm(false); $("attacker-unit").focus(); });
    $("pin").addEventListener("click", () => last && addPin(last.scenario, last.result).then(writeUrl));
    $("compare-metric").addEventListener("change", renderPins);
    $("share").addEventListener("click", share);
    window.addEventListener("hashchange", () => {
      const s = new URLSearchParams(location.hash.slice(1)).get("s");
      if (s && (!last || s !== b64encode(last.scenario))) { pins = []; renderPins(); readUrl(); }
    });
    let resizeTimer = null;
    let width = window.innerWidth;
    window.addEventListener("resize", () => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(() => {
        if (last) R.render(last.result, R.asFielded(last.scenario, last.result));
        if (!narrow()) collapseForm(false);
        renderPins();
      }, 200);
    });
    window.TacticaFactions.browse();
    readUrl().then(changed);
  }
  init();
})();
