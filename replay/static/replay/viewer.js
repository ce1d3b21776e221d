/* The replay viewer: a game's table, one step at a time (docs/viewer.md).

   An ES module (``<script type="module">``, no build step) that wires the parts in viewer/:

   - notation/: the tile notations, one per family (MPSZ for riichi and its variants, UJMJ for
     Ùzje): names, faces, how a win's value reads;
   - layout.js: where the seats, rivers, hands and the centre lie (pure maths);
   - tiles.js, table.js, result.js, end.js, panel.js: drawing the tiles, the table, the result
     panel, the game's end (the final standings) and the analysis panel;
   - analysis.js: the study aids (each discard decision's tile acceptance, read from the frames);
   - navigation.js: the moment shown, loading the frames, the address, autoplay and the keys;
   - strings.js, format.js: every sentence and number as the page writes it.

   The page embeds where to start (#viewer-data: the game, its players and hands, the first
   discrepancy, the starting round/step/seat); each hand's frames (the table after each event,
   docs/replay.md "Frames") come from the frames API and are kept once fetched. */

import { renderGameEnd } from "./viewer/end.js";
import { clamp } from "./viewer/format.js";
import { modeFor } from "./viewer/layout.js";
import { Navigator, bindKeys, resolveStep } from "./viewer/navigation.js";
import { notationOf } from "./viewer/notation/index.js";
import { renderAnalysis } from "./viewer/panel.js";
import { renderResult } from "./viewer/result.js";
import { actionText, handTitle, roundWords, setLanguage, t } from "./viewer/strings.js";
import { Table } from "./viewer/table.js";
import { element, setFaceBase } from "./viewer/tiles.js";

/** Wider than this, the table is a square beside a side panel. */
const WIDE = 900;

function start() {
  const root = document.getElementById("viewer");
  const dataNode = document.getElementById("viewer-data");
  if (!root || !dataNode || !window.fetch) {
    return;
  }
  const data = JSON.parse(dataNode.textContent);
  // The page's language (Django writes <html lang> from the visitor's choice or browser).
  setLanguage(document.documentElement.lang, { yaku: data.yaku_names });
  const players = data.players;
  const count = data.players_count || players.length;
  const rounds = data.rounds || [];
  setFaceBase(root.getAttribute("data-tiles"));

  const byId = (id) => document.getElementById(id);
  const tableNode = byId("table");
  const stage = tableNode.parentNode;
  const stepNode = byId("step");
  const actionNode = byId("action");
  const roundSelect = byId("round-select");
  const seatSelect = byId("seat-select");
  const scrub = byId("scrub");
  const handsButton = byId("hands-toggle");
  const playButton = byId("autoplay");
  const speedSelect = byId("speed");
  const resultPanel = byId("result");
  const endPanel = byId("game-end");
  const analysisPanel = byId("analysis");
  const banner = byId("discrepancy");
  const help = byId("help");
  const loadError = byId("load-error");

  const names = (seat) => (players[seat] !== undefined ? players[seat] : "seat " + (seat + 1));
  const table = new Table({ table: tableNode, center: byId("center") }, count, names);
  let notation = notationOf(null);

  function roundLabel(round) {
    const result = t("results")[round.result] || round.result;
    return handTitle(round.name, round.honba, true) + " \u00b7 " + result;
  }

  // -- Layout: the table's size follows the window ---------------------------------------------

  function layout() {
    const width = root.clientWidth;
    if (width >= WIDE) {
      root.classList.add("layout-wide");
      const panel = clamp(width * 0.3, 300, 420);
      const top = root.getBoundingClientRect().top + window.scrollY;
      const side = Math.floor(Math.max(480, Math.min(width - panel - 16, window.innerHeight - top - 10)));
      root.style.setProperty("--table-size", side + "px");
      table.layout(side, side, "square");
      return;
    }
    root.classList.remove("layout-wide");
    root.style.removeProperty("--table-size");
    if (modeFor(width) === "square") {
      const side = Math.min(width, 760);
      table.layout(side, side, "square");
    } else {
      table.layout(width, 0, "tall");
    }
  }

  // -- Drawing a moment --------------------------------------------------------------------------

  function render() {
    const state = nav.state;
    notation = notationOf(state.current);
    root.classList.toggle("uzje", notation.name === "uzje");
    const frames = state.current.frames;
    const frame = frames[state.step];
    const previous = state.step > 0 ? frames[state.step - 1] : null;
    const last = frames.length - 1;
    root.setAttribute("data-hands", state.hands ? "shown" : "hidden");
    root.setAttribute("data-round", String(state.round));
    root.setAttribute("data-step", String(state.step));
    root.setAttribute("data-seat", String(state.seat));
    root.classList.toggle("at-game-end", state.end);
    if (state.end) {
      root.setAttribute("data-end", "");
    } else {
      root.removeAttribute("data-end");
    }
    stepNode.textContent = state.end ? t("gameEnd") : t("step", { step: state.step, last: last });
    stepNode.setAttribute("data-step", String(state.step));
    stepNode.setAttribute("data-last", String(last));
    scrub.max = String(last);
    scrub.value = String(state.step);
    roundSelect.value = state.end ? "end" : String(state.round);
    seatSelect.value = String(state.seat);
    handsButton.textContent = state.hands ? t("handsShown") : t("handsHidden");
    handsButton.setAttribute("aria-pressed", state.hands ? "true" : "false");
    if (state.end) {
      actionNode.textContent = t("gameOver");
    } else {
      actionNode.textContent = frame.action ? actionText(frame.action, names, notation) : t("deal");
    }
    layout();
    const context = studyContext();
    table.render(frame, previous, { viewed: state.seat, handsShown: state.hands, notation: notation });
    renderAnalysis(analysisPanel, frame, state.seat, context);
    showResult(frame, context);
    markDiscrepancy();
    document.title = state.end
      ? t("gameEnd") + " \u00b7 " + data.title
      : t("pageTitle", { round: roundWords(frame.round_name), step: state.step, title: data.title });
  }

  /** What the panels need: the notation, the names, and for the study aids the hand's frames
      and every hand loaded so far (the game's summary). */
  function studyContext() {
    return {
      notation: notation,
      names: names,
      count: count,
      frames: nav.state.current.frames,
      game: nav.loadedHands()
    };
  }

  /** The result panel at a hand's end, or at the game's end the final standings (each
      closed with Esc or its × until the moment changes). */
  function showResult(frame, context) {
    const state = nav.state;
    const key = state.end ? "end" : state.round + ":" + frame.step;
    if (state.resultHidden !== key) {
      state.resultHidden = null; // closed at another moment: show the next result again
    }
    resultPanel.hidden = true;
    endPanel.hidden = true;
    stage.style.minHeight = "";
    if (state.resultHidden === key) {
      return;
    }
    let panel;
    if (state.end) {
      renderGameEnd(endPanel, data.end, { names: names, verdict: data.verdict });
      panel = endPanel;
    } else if (frame.result) {
      renderResult(resultPanel, frame, context);
      if (nav.atLastStep()) {
        // The last hand's result leads on to the game's end, as → does.
        const next = element("button", "to-game-end", t("toGameEnd"));
        next.type = "button";
        next.title = t("toGameEndTitle");
        next.addEventListener("click", () => nav.goEnd());
        resultPanel.querySelector(".result-body").appendChild(next);
      }
      panel = resultPanel;
    } else {
      return;
    }
    panel.hidden = false;
    // On a narrow screen the panel may be longer than the table: the page makes room for it.
    stage.style.minHeight = root.classList.contains("layout-wide")
      ? ""
      : panel.offsetTop + panel.offsetHeight + 8 + "px";
  }

  function hideResult() {
    if (nav.ready() && (!resultPanel.hidden || !endPanel.hidden)) {
      const state = nav.state;
      state.resultHidden = state.end ? "end" : state.round + ":" + state.step;
      resultPanel.hidden = true;
      endPanel.hidden = true;
      stage.style.minHeight = "";
      tableNode.focus();
    }
  }

  function markDiscrepancy() {
    const found = data.discrepancy;
    const state = nav.state;
    const here =
      !!found && found.round === state.round && nav.ready() && !state.end &&
      resolveStep(found.step, nav.lastStep()) === state.step;
    root.classList.toggle("at-discrepancy", here);
    banner.classList.toggle("here", here);
    actionNode.classList.toggle("discrepancy-here", here);
    if (here) {
      actionNode.appendChild(
        element(
          "span",
          "discrepancy-note",
          found.verdict === "illegal_action"
            ? t("illegalHere", { action: found.subject })
            : t("discrepancyHere", { what: found.subject })
        )
      );
    }
  }

  function showBanner() {
    const found = data.discrepancy;
    if (!found) {
      return;
    }
    const illegal = found.verdict === "illegal_action";
    banner.querySelector(".verdict-label").textContent = illegal ? t("illegalAction") : t("scoreMismatch");
    // Written by the server in the page's language (mjlogs/discrepancy_words.py): who did
    // what, and which rule it breaks.
    banner.querySelector(".discrepancy-sentence").textContent = found.sentence;
    const rule = banner.querySelector(".discrepancy-rule");
    rule.textContent = found.rule;
    rule.hidden = !found.rule;
    banner.classList.add(illegal ? "illegal" : "mismatch");
    banner.hidden = false;
  }

  function showError(error) {
    loadError.textContent = t("loadFailed", { message: error && error.message ? error.message : String(error) });
    loadError.hidden = false;
  }

  const nav = new Navigator({
    data: data,
    count: count,
    root: root,
    render: render,
    onRounds: (engineRounds) => {
      engineRounds.forEach((round, index) => {
        roundSelect.options[index].textContent = roundLabel(round);
      });
    },
    onError: showError,
    onLoaded: () => {
      loadError.hidden = true;
    }
  });
  // Once a hand is shown, the others load one by one for the game's summary of the study aids;
  // the panel counts each as it comes.
  nav.onMoreLoaded = () => {
    if (nav.ready()) {
      const state = nav.state;
      renderAnalysis(analysisPanel, state.current.frames[state.step], state.seat, studyContext());
    }
  };
  nav.onPlaying = (playing) => {
    playButton.textContent = playing ? t("pause") : t("play");
    playButton.setAttribute("aria-pressed", playing ? "true" : "false");
    root.classList.toggle("playing", playing);
  };

  // -- Controls ----------------------------------------------------------------------------------

  function openHelp() {
    if (help.open) {
      help.close();
    } else if (help.showModal) {
      help.showModal();
    } else {
      help.setAttribute("open", "");
    }
  }

  function changeSpeed(by) {
    speedSelect.selectedIndex = clamp(speedSelect.selectedIndex + by, 0, speedSelect.options.length - 1);
    nav.speed = parseFloat(speedSelect.value) || 1;
  }

  rounds.forEach((round) => {
    const option = element("option", "", roundLabel(round));
    option.value = String(round.index);
    roundSelect.appendChild(option);
  });
  if (rounds.length) {
    // After the last hand: the game's end (its final standings).
    const option = element("option", "", t("gameEnd"));
    option.value = "end";
    roundSelect.appendChild(option);
  }
  players.forEach((name, seat) => {
    const option = element("option", "", seat + 1 + ". " + name);
    option.value = String(seat);
    seatSelect.appendChild(option);
  });

  const buttons = {
    "prev-round": () => nav.changeRound(-1),
    "next-round": () => nav.changeRound(1),
    start: () => nav.start(),
    end: () => nav.end(),
    back: () => nav.back(),
    forward: () => nav.forward(),
    "prev-turn": () => nav.previousTurn(),
    "next-turn": () => nav.nextTurn()
  };
  root.querySelectorAll("[data-nav]").forEach((button) => {
    button.addEventListener("click", buttons[button.getAttribute("data-nav")]);
  });
  roundSelect.addEventListener("change", () => {
    if (roundSelect.value === "end") {
      nav.goEnd();
    } else {
      nav.go(parseInt(roundSelect.value, 10), 0);
    }
    roundSelect.blur();
  });
  seatSelect.addEventListener("change", () => {
    nav.setSeat(parseInt(seatSelect.value, 10));
    seatSelect.blur();
  });
  speedSelect.addEventListener("change", () => {
    nav.speed = parseFloat(speedSelect.value) || 1;
    speedSelect.blur();
  });
  nav.speed = parseFloat(speedSelect.value) || 1;
  scrub.addEventListener("input", () => {
    if (nav.ready()) {
      nav.go(nav.state.round, parseInt(scrub.value, 10), { replace: true });
    }
  });
  scrub.addEventListener("change", () => {
    if (nav.ready()) {
      nav.remember(false);
    }
  });
  byId("rotate").addEventListener("click", () => nav.setSeat(nav.state.seat + 1));
  handsButton.addEventListener("click", () => nav.toggleHands());
  playButton.addEventListener("click", () => nav.togglePlay());
  byId("help-button").addEventListener("click", openHelp);
  resultPanel.querySelector(".close-result").addEventListener("click", hideResult);
  endPanel.querySelector(".close-result").addEventListener("click", hideResult);
  banner.querySelector(".go-discrepancy").addEventListener("click", () => nav.goDiscrepancy());
  bindKeys(nav, { speed: changeSpeed, help: openHelp, hideResult: hideResult }, help);
  // The study aids' buttons (drawn by panel.js): the decision keys , . < > for touch screens.
  analysisPanel.addEventListener("click", (event) => {
    const button = event.target.closest ? event.target.closest("[data-study]") : null;
    if (!button) {
      return;
    }
    const name = button.getAttribute("data-study");
    nav.jumpDecision(name.startsWith("next") ? 1 : -1, name.endsWith("missed"));
  });
  window.addEventListener("popstate", (event) => nav.restore(event.state));

  // The table follows the window's size.
  let size = "";
  const resized = () => {
    const now = root.clientWidth + "x" + window.innerHeight;
    if (now === size) {
      return;
    }
    size = now;
    if (nav.ready()) {
      render();
    } else {
      layout();
    }
  };
  if (window.ResizeObserver) {
    new ResizeObserver(resized).observe(root);
  }
  window.addEventListener("resize", resized);

  // -- Start -------------------------------------------------------------------------------------

  root.classList.add("js");
  showBanner();
  layout();
  if (!rounds.length) {
    actionNode.textContent = t("noHands");
    return;
  }
  const first = data.start;
  const opened = first.end
    ? nav.goEnd({ replace: true })
    : nav.go(first.round, first.at_discrepancy ? "discrepancy" : first.step, { replace: true });
  opened.then(() => nav.loadAll());
}

start();
