/* The upload page without a page load per file: each chosen or dropped file is posted on its
   own (XMLHttpRequest, so the upload shows its progress), and what became of each of its games
   is shown under it. Without JavaScript the form posts as usual and the page lists the results.
   The server answers JSON because of the Accept header (see mjlogs/views/uploads.py). */
(function () {
  "use strict";

  var form = document.getElementById("upload-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) {
    return;
  }
  document.documentElement.classList.add("js");

  var input = form.querySelector('input[type="file"]');
  var zone = document.getElementById("dropzone");
  var list = document.getElementById("upload-list");
  var token = form.querySelector('input[name="csrfmiddlewaretoken"]').value;
  var gameUrl = form.getAttribute("data-game-url");
  var placeholder = form.getAttribute("data-game-id-placeholder");

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined) {
      node.textContent = text;
    }
    return node;
  }

  function visibility() {
    var checked = form.querySelector('input[name="visibility"]:checked');
    return checked ? checked.value : "public";
  }

  function gameLink(id, text) {
    var link = element("a", "", text);
    link.href = gameUrl.replace(placeholder, String(id));
    return link;
  }

  function showOutcomes(results, outcomes) {
    var several = outcomes.length > 1;
    outcomes.forEach(function (outcome) {
      var row = element("li", "outcome outcome-" + outcome.status);
      var label = several && outcome.index !== null ? "Game " + (outcome.index + 1) + ": " : "";
      if (outcome.status === "imported") {
        row.appendChild(document.createTextNode(label + "imported: "));
        row.appendChild(gameLink(outcome.game_id, "view the game"));
      } else if (outcome.status === "duplicate") {
        row.appendChild(document.createTextNode(label + "already stored: "));
        row.appendChild(gameLink(outcome.game_id, "view the stored game"));
      } else {
        row.appendChild(document.createTextNode(label + "failed: " + outcome.error));
      }
      results.appendChild(row);
    });
  }

  function parse(text) {
    try {
      return JSON.parse(text);
    } catch (error) {
      return null;
    }
  }

  function uploadOne(file) {
    var item = element("li", "upload-item");
    item.appendChild(element("span", "file-name", file.name));
    var progress = element("progress");
    progress.max = 100;
    progress.value = 0;
    progress.setAttribute("aria-label", "Upload of " + file.name);
    item.appendChild(progress);
    var state = element("span", "upload-state", "Sending…");
    item.appendChild(state);
    var results = element("ul", "outcomes");
    item.appendChild(results);
    list.appendChild(item);

    var data = new FormData();
    data.append("files", file, file.name);
    data.append("visibility", visibility());
    var powers = form.querySelectorAll('input[name="modifiers"]:checked');
    Array.prototype.forEach.call(powers, function (box) {
      data.append("modifiers", box.value);
    });

    var xhr = new XMLHttpRequest();
    xhr.open("POST", form.action);
    xhr.setRequestHeader("Accept", "application/json");
    xhr.setRequestHeader("X-CSRFToken", token);
    xhr.upload.onprogress = function (event) {
      if (event.lengthComputable) {
        progress.value = Math.round((event.loaded / event.total) * 100);
      }
    };
    xhr.upload.onload = function () {
      progress.value = 100;
      state.textContent = "Reading and storing…";
    };
    xhr.onload = function () {
      progress.value = 100;
      var body = parse(xhr.responseText);
      if (xhr.status === 200 && body && body.outcomes) {
        var counts = body.counts || {};
        state.textContent =
          (counts.imported || 0) + " imported, " + (counts.duplicate || 0) + " duplicate, " +
          (counts.failed || 0) + " failed";
        item.classList.add(counts.failed ? "has-failures" : "done");
        showOutcomes(results, body.outcomes);
      } else {
        item.classList.add("has-failures");
        state.textContent = (body && body.error) ||
          "The server refused the file (" + xhr.status + "); reload the page and try again.";
      }
    };
    xhr.onerror = function () {
      item.classList.add("has-failures");
      state.textContent = "The upload did not reach the server; check the connection and try again.";
    };
    xhr.send(data);
  }

  function uploadAll(files) {
    for (var i = 0; i < files.length; i += 1) {
      uploadOne(files[i]);
    }
  }

  input.addEventListener("change", function () {
    uploadAll(input.files);
    input.value = "";
  });

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    uploadAll(input.files);
    input.value = "";
  });

  ["dragenter", "dragover"].forEach(function (name) {
    zone.addEventListener(name, function (event) {
      event.preventDefault();
      zone.classList.add("dragging");
    });
  });
  ["dragleave", "drop"].forEach(function (name) {
    zone.addEventListener(name, function (event) {
      event.preventDefault();
      zone.classList.remove("dragging");
    });
  });
  zone.addEventListener("drop", function (event) {
    if (event.dataTransfer && event.dataTransfer.files.length) {
      uploadAll(event.dataTransfer.files);
    }
  });
})();
