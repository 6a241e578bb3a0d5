// The console's only script: keyboard shortcuts and arrow-key moves through the sitemap.
// Every view works without it; it only saves keystrokes.
(function () {
  "use strict";

  function typing(target) {
    var name = target && target.tagName ? target.tagName.toLowerCase() : "";
    return name === "input" || name === "select" || name === "textarea" || target.isContentEditable;
  }

  // From a focused vertex, the nearest vertex in the arrow's direction, favouring those
  // straight ahead over those off to the side.
  function nearestVertex(from, key) {
    var box = from.getBoundingClientRect();
    var x = box.left + box.width / 2;
    var y = box.top + box.height / 2;
    var best = null;
    var bestScore = Infinity;
    document.querySelectorAll("svg.sitemap a[data-vertex]").forEach(function (other) {
      if (other === from) {
        return;
      }
      var otherBox = other.getBoundingClientRect();
      var dx = otherBox.left + otherBox.width / 2 - x;
      var dy = otherBox.top + otherBox.height / 2 - y;
      var ahead = { ArrowRight: dx, ArrowLeft: -dx, ArrowDown: dy, ArrowUp: -dy }[key];
      var aside = key === "ArrowRight" || key === "ArrowLeft" ? Math.abs(dy) : Math.abs(dx);
      if (ahead <= 1) {
        return;
      }
      var score = ahead + 2 * aside;
      if (score < bestScore) {
        bestScore = score;
        best = other;
      }
    });
    return best;
  }

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) {
      return;
    }
    var active = document.activeElement;
    var onVertex = active && active.matches && active.matches("svg.sitemap a[data-vertex]");
    if (event.key.indexOf("Arrow") === 0) {
      var start = onVertex ? active : null;
      var next = start ? nearestVertex(start, event.key)
        : document.querySelector("svg.sitemap a[data-vertex]");
      if (next) {
        next.focus();
        event.preventDefault();
      }
      return;
    }
    if (event.key === "Enter" && onVertex) {
      window.location.href = active.getAttribute("href");
      event.preventDefault();
      return;
    }
    var link = document.querySelector("header a[data-key='" + event.key + "']");
    if (link) {
      window.location.href = link.getAttribute("href");
      event.preventDefault();
    }
  });
})();
