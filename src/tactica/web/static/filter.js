/* Filter an index as you type: the datasheets (#unit-index, by unit name) and the rules
 * (#rule-index, by rule, detachment or faction; the matching sections open). */
(function () {
  "use strict";
  function filter(inputId, indexId, sections, openMatches) {
    const input = document.getElementById(inputId);
    if (!input) return;
    input.addEventListener("input", () => {
      const q = input.value.trim().toLowerCase();
      for (const section of document.querySelectorAll(`#${indexId} ${sections}`)) {
        const whole = !q || (section.dataset.filter || "").includes(q);
        let shown = 0;
        for (const li of section.querySelectorAll("li")) {
          const words = li.dataset.name || li.textContent.toLowerCase();
          const hit = whole || words.includes(q);
          li.hidden = !hit;
          if (hit) shown++;
        }
        section.hidden = shown === 0 && !whole;
        if (openMatches) section.open = !!q && !section.hidden;
      }
    });
  }
  filter("unit-filter", "unit-index", "section", false);
  filter("rule-filter", "rule-index", "details.rule-section", true);
})();
