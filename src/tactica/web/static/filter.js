/* Filter the unit index as you type. */
(function () {
  "use strict";
  const input = document.getElementById("unit-filter");
  if (!input) return;
  input.addEventListener("input", () => {
    const q = input.value.trim().toLowerCase();
    for (const section of document.querySelectorAll("#unit-index section")) {
      let shown = 0;
      for (const li of section.querySelectorAll("li")) {
        const hit = !q || li.dataset.name.includes(q);
        li.hidden = !hit;
        if (hit) shown++;
      }
      section.hidden = shown === 0;
    }
  });
})();
