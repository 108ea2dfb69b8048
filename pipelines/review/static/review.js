// Keyboard shortcuts of the review page (served from /static: the page's CSP allows no inline script).
document.addEventListener("DOMContentLoaded", () => {
  const byId = (id) => document.getElementById(id);
  const revise = byId("revise");
  if (byId("toggle-revise")) {
    byId("toggle-revise").addEventListener("click", () => {
      revise.hidden = !revise.hidden;
      if (!revise.hidden) byId("revise-title").focus();
    });
  }
  if (byId("reject")) {
    // a rejection needs a reason: say so before the server has to
    byId("reject").addEventListener("click", (ev) => {
      if (!byId("reason").value) { ev.preventDefault(); byId("reason").focus(); }
    });
  }
  document.addEventListener("keydown", (ev) => {
    const tag = (ev.target.tagName || "").toLowerCase();
    if (["input", "textarea", "select"].includes(tag) || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const go = (id) => { const a = byId(id); if (a) { window.location = a.href; } };
    switch (ev.key) {
      case "j": go("next"); break;
      case "k": go("prev"); break;
      case "q": go("to-queue"); break;
      case "a": if (byId("approve")) { ev.preventDefault(); byId("approve").click(); } break;
      case "r": if (byId("reason")) { ev.preventDefault(); byId("reason").focus(); } break;
      case "e": if (byId("toggle-revise")) { ev.preventDefault(); byId("toggle-revise").click(); } break;
    }
  });
});
