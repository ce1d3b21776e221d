/* The upload page without a page load per file: each chosen or dropped file is posted on its
   own (XMLHttpRequest, so the upload shows its progress), and what became of each of its games
   is shown under it. Without JavaScript the form posts as usual and the page lists the results.
   With "Let the workers import them" checked, the files go in one ordinary form post, and the
   browser goes on to the page that follows the workers (mjlogs/views/queued_imports.py).
   The server answers JSON because of the Accept header (see mjlogs/views/uploads.py).
   The words are in English, or in Japanese when the page is (<html lang="ja">): WORDS below. */
(function () {
  "use strict";

  var WORDS = {
    en: {
      game: "Game {number}: ",
      imported: "imported: ",
      viewGame: "view the game",
      duplicate: "already stored: ",
      viewStored: "view the stored game",
      failed: "failed: {error}",
      progress: "Upload of {file}",
      sending: "Sending\u2026",
      reading: "Reading and storing\u2026",
      counts: "{imported} imported, {duplicate} duplicate, {failed} failed",
      refused: "The server refused the file ({status}); reload the page and try again.",
      offline: "The upload did not reach the server; check the connection and try again."
    },
    ja: {
      game: "対局{number}：",
      imported: "取り込み済み：",
      viewGame: "対局を見る",
      duplicate: "保存済み：",
      viewStored: "保存済みの対局を見る",
      failed: "失敗：{error}",
      progress: "{file} のアップロード",
      sending: "送信中\u2026",
      reading: "読み込んで保存しています\u2026",
      counts: "取り込み{imported}件、重複{duplicate}件、失敗{failed}件",
      refused: "サーバーがファイルを受け付けませんでした（{status}）。ページを再読み込みしてもう一度お試しください。",
      offline: "アップロードがサーバーに届きませんでした。接続を確認してもう一度お試しください。"
    }
  };
  var language = (document.documentElement.lang || "en").toLowerCase().split("-")[0];
  var words = WORDS[language] || WORDS.en;

  /** The words of ``key`` with ``{name}`` replaced by ``values.name``. */
  function say(key, values) {
    return words[key].replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  var form = document.getElementById("upload-form");
  if (!form || !window.FormData || !window.XMLHttpRequest) {
    return;
  }
  document.documentElement.classList.add("js");

  var input = form.querySelector('input[type="file"]');
  var zone = document.getElementById("dropzone");
  var list = document.getElementById("upload-list");
  var token = form.querySelector('input[name="csrfmiddlewaretoken"]').value;
  var workers = form.querySelector('input[name="on_workers"]');
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
      var label = several && outcome.index !== null ? say("game", { number: outcome.index + 1 }) : "";
      if (outcome.status === "imported") {
        row.appendChild(document.createTextNode(label + say("imported")));
        row.appendChild(gameLink(outcome.game_id, say("viewGame")));
      } else if (outcome.status === "duplicate") {
        row.appendChild(document.createTextNode(label + say("duplicate")));
        row.appendChild(gameLink(outcome.game_id, say("viewStored")));
      } else {
        row.appendChild(document.createTextNode(label + say("failed", { error: outcome.error })));
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
    progress.setAttribute("aria-label", say("progress", { file: file.name }));
    item.appendChild(progress);
    var state = element("span", "upload-state", say("sending"));
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
      state.textContent = say("reading");
    };
    xhr.onload = function () {
      progress.value = 100;
      var body = parse(xhr.responseText);
      if (xhr.status === 200 && body && body.outcomes) {
        var counts = body.counts || {};
        state.textContent = say("counts", {
          imported: counts.imported || 0,
          duplicate: counts.duplicate || 0,
          failed: counts.failed || 0
        });
        item.classList.add(counts.failed ? "has-failures" : "done");
        showOutcomes(results, body.outcomes);
      } else {
        item.classList.add("has-failures");
        state.textContent = (body && body.error) ||
          say("refused", { status: xhr.status });
      }
    };
    xhr.onerror = function () {
      item.classList.add("has-failures");
      state.textContent = say("offline");
    };
    xhr.send(data);
  }

  /** Whether the files go to the workers, in one post of the form itself. */
  function toWorkers() {
    return Boolean(workers && workers.checked);
  }

  /** Post the form itself, once: the browser goes on to the page that follows the workers. */
  function submitToWorkers() {
    if (!input.files.length || form.classList.contains("sending")) {
      return;
    }
    form.classList.add("sending");
    form.submit();
    input.disabled = true;  // (after the submit: a disabled input's files are not sent)
  }

  function uploadAll(files) {
    for (var i = 0; i < files.length; i += 1) {
      uploadOne(files[i]);
    }
  }

  input.addEventListener("change", function () {
    if (toWorkers()) {
      submitToWorkers();
      return;
    }
    uploadAll(input.files);
    input.value = "";
  });

  form.addEventListener("submit", function (event) {
    if (toWorkers()) {
      event.preventDefault();
      submitToWorkers();
      return;
    }
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
      if (toWorkers()) {
        if (!form.classList.contains("sending")) {
          input.files = event.dataTransfer.files;
          submitToWorkers();
        }
        return;
      }
      uploadAll(event.dataTransfer.files);
    }
  });
})();
