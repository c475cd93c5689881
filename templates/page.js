"use strict";
// gpureport page script: draws the charts whose echarts options the page
// carries inline. No network access: echarts is inlined above.
(function () {
  var instances = [];
  window.gpr = {
    chart: function (id, option) {
      var el = document.getElementById(id);
      if (!el || typeof echarts === "undefined") {
        return;
      }
      var c = echarts.init(el, null, { renderer: "canvas" });
      c.setOption(option);
      instances.push(c);
    }
  };
  function resizeAll() {
    for (var i = 0; i < instances.length; i++) {
      instances[i].resize();
    }
  }
  window.addEventListener("resize", resizeAll);
  // Printing shows everything: folded notes, library frames and lists
  // open for the print and close again after it; charts redraw at the
  // paper's width.
  var opened = [];
  window.addEventListener("beforeprint", function () {
    var all = document.querySelectorAll("details:not([open])");
    for (var i = 0; i < all.length; i++) {
      all[i].open = true;
      opened.push(all[i]);
    }
    resizeAll();
  });
  window.addEventListener("afterprint", function () {
    for (var i = 0; i < opened.length; i++) {
      opened[i].open = false;
    }
    opened = [];
    resizeAll();
  });
})();
