// A seat's page: the server sends the seat's picture as HTML over a
// websocket whenever the game moves; answers go back the same way. Nothing
// here comes from outside the tool.
(function () {
  "use strict";
  var root = document.getElementById("table");
  var status = document.getElementById("status");
  var socket = null;
  var tries = 0;

  function say(text, bad) {
    status.textContent = text || "";
    status.className = bad ? "status error" : "status";
  }

  function seq() {
    var d = root.querySelector(".decision");
    return d ? parseInt(d.getAttribute("data-seq"), 10) : -1;
  }

  function send(choice) {
    if (!socket || socket.readyState !== 1) { say("not connected: try again in a moment", true); return; }
    socket.send(JSON.stringify({seq: seq(), choice: choice}));
    say("sent");
  }

  function dress() {  // the host's links lead from this page's own address
    var save = root.querySelector("a.save");
    if (save) { save.setAttribute("href", location.pathname + "/save"); }
    var replay = root.querySelector("a.replay");
    if (replay) { replay.setAttribute("href", location.pathname + "/replay?at=0"); }
  }

  function connect() {
    var url = (location.protocol === "https:" ? "wss://" : "ws://") + location.host + root.getAttribute("data-ws");
    socket = new WebSocket(url);
    socket.onopen = function () { tries = 0; say(""); };
    socket.onmessage = function (event) {
      var msg = JSON.parse(event.data);
      if (msg.html !== undefined) { root.innerHTML = msg.html; dress(); say(""); }
      if (msg.error) { say(msg.error, true); }
    };
    socket.onclose = function () {
      tries += 1;
      say("connection lost: reconnecting", true);
      setTimeout(connect, Math.min(5000, 300 * tries));
    };
  }

  root.addEventListener("click", function (event) {
    var b = event.target.closest("button.option");
    if (!b) { return; }
    var c = b.getAttribute("data-choice");
    send(/^[0-9]+$/.test(c) ? parseInt(c, 10) : c);
  });
  root.addEventListener("submit", function (event) {
    var form = event.target;
    event.preventDefault();
    if (form.classList.contains("undo")) {
      fetch(location.pathname + "/undo?to=" + encodeURIComponent(form.elements.to.value), {method: "POST"})
        .then(function (r) { return r.json(); })
        .then(function (r) { say(r.error ? r.error : "taken back to decision " + r.choices, !!r.error); });
    } else if (form.classList.contains("number")) {
      send(String(form.elements.number.value).trim());
    } else if (form.classList.contains("some")) {
      var counts = [];
      form.querySelectorAll("input[name=count]").forEach(function (i) { counts.push(parseInt(i.value || "0", 10)); });
      send(counts);
    }
  });
  dress();
  connect();
}());
