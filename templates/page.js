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
  window.addEventListener("resize", function () {
    for (var i = 0; i < instances.length; i++) {
      instances[i].resize();
    }
  });
})();
