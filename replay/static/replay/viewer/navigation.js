/* Moving through a game: the current moment (hand, step, seat, hands shown, or the game's end
   after its last hand), loading each hand's frames once, the address
   (?round=R&step=N&seat=S[&hands=hidden], or ?end=1&seat=S for the game's end: each move pushes
   a history entry, autoplay replaces it, so a link opens that moment and the browser's back and
   forward walk the moves), autoplay and the keys. The pure parts are exported for the tests. */

import { decisionSteps, neighbour } from "./analysis.js";
import { clamp } from "./format.js";
import { t } from "./strings.js";

const BASE_DELAY = 900;

/** The steps where ``seat`` has to choose a discard: after its draw or its chi/pon (an Ùzje
    chow: a claimed arith). */
export function turnSteps(frames, seat) {
  const steps = [];
  let before = false;
  frames.forEach((frame, index) => {
    const action = frame.action;
    const now =
      !!action &&
      action.seat === seat &&
      (!!frame.seats[seat].drawn || /chi|pon|chow/.test(String(action.type)));
    if (now && !before) {
      steps.push(index);
    }
    before = now;
  });
  return steps;
}

/** A step of a hand with ``last`` + 1 frames: negative counts from the end. */
export function resolveStep(step, last) {
  if (step === null || step === undefined) {
    return 0;
  }
  return step < 0 ? clamp(last + 1 + step, 0, last) : clamp(step, 0, last);
}

/** The address of a moment, keeping the query's other parameters; the game's end
    (``moment.end``) is ``end=1`` without a hand or a step. */
export function addressOf(moment, search) {
  const params = new URLSearchParams(search || "");
  if (moment.end) {
    params.delete("round");
    params.delete("step");
    params.set("end", "1");
  } else {
    params.delete("end");
    params.set("round", String(moment.round));
    params.set("step", String(moment.step));
  }
  params.set("seat", String(moment.seat));
  if (moment.hands) {
    params.delete("hands");
  } else {
    params.set("hands", "hidden");
  }
  return "?" + params.toString();
}

/** The moment an address names. */
export function momentOf(search) {
  const params = new URLSearchParams(search || "");
  return {
    round: parseInt(params.get("round") || "0", 10) || 0,
    step: parseInt(params.get("step") || "0", 10) || 0,
    seat: parseInt(params.get("seat") || "0", 10) || 0,
    hands: params.get("hands") !== "hidden",
    end: params.get("end") === "1"
  };
}

/**
 * The viewer's state and its moves. ``options``: ``data`` (the page's #viewer-data), ``count``,
 * ``root`` (#viewer), ``render()`` (draws the current moment), ``onRounds(rounds)`` (the
 * engine's hand list, once known), ``onError(error)``, ``onLoaded()``.
 */
export class Navigator {
  constructor(options) {
    this.data = options.data;
    this.count = options.count;
    this.root = options.root;
    this.rounds = options.data.rounds || [];
    this.render = options.render;
    this.onRounds = options.onRounds;
    this.onError = options.onError;
    this.onLoaded = options.onLoaded;
    this.state = {
      round: null,
      step: 0,
      seat: options.data.start.seat || 0,
      hands: options.data.start.hands !== "hidden",
      current: null, // the round's frames response
      end: false, // the game's end after its last hand (the final standings)
      resultHidden: null // "round:step" whose result panel the user closed
    };
    this.cache = {};
    // Each hand's frames once loaded, by round: the study aids' game summary reads them.
    this.loaded = {};
    this.onMoreLoaded = () => {};
    this.token = 0;
    this.timer = null;
    this.roundsRefreshed = false;
    this.playing = false;
    this.speed = 1;
    this.onPlaying = () => {};
  }

  ready() {
    return this.state.current !== null;
  }

  frames() {
    return this.state.current.frames;
  }

  lastStep() {
    return this.state.current.frames.length - 1;
  }

  load(round) {
    if (!this.cache[round]) {
      this.cache[round] = fetch(this.data.frames_url + round + "/frames/", {
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      })
        .then((response) => {
          if (!response.ok) {
            throw new Error(t("framesFailed", { hand: round + 1, status: response.status }));
          }
          return response.json();
        })
        .then((body) => {
          this.refreshRounds(body.rounds);
          const found = body.discrepancy;
          if (found && this.data.discrepancy && found.round === round && typeof found.step === "number") {
            this.data.discrepancy.step = found.step;
          }
          this.loaded[round] = body;
          return body;
        });
      this.cache[round].catch(() => {
        delete this.cache[round];
      });
    }
    return this.cache[round];
  }

  /** The hand selector's results as the engine replays each hand (the frames API's
      ``rounds``), once known. */
  refreshRounds(engineRounds) {
    if (this.roundsRefreshed || !engineRounds || engineRounds.length !== this.rounds.length) {
      return;
    }
    this.roundsRefreshed = true;
    engineRounds.forEach((round, index) => {
      this.rounds[index].result = round.result;
    });
    this.onRounds(engineRounds);
  }

  remember(replace) {
    const state = this.state;
    const entry = { round: state.round, step: state.step, seat: state.seat, hands: state.hands, end: state.end };
    const url = addressOf(entry, window.location.search);
    if (!replace && url === window.location.search) {
      replace = true;
    }
    if (replace) {
      window.history.replaceState(entry, "", url);
    } else {
      window.history.pushState(entry, "", url);
    }
  }

  /** Show the round's step (negative: from its end; "discrepancy": the first discrepancy's
      step). Options: ``replace`` (replace the history entry instead of adding one),
      ``noHistory`` (leave the address alone: a popstate), ``end`` (the game's end: the last
      hand's last step under the final standings; ``goEnd``). */
  go(round, step, options) {
    options = options || {};
    if (!this.rounds.length) {
      return Promise.resolve();
    }
    round = clamp(round, 0, this.rounds.length - 1);
    const token = (this.token += 1);
    this.root.classList.add("loading");
    return this.load(round).then(
      (body) => {
        if (token !== this.token) {
          return;
        }
        this.root.classList.remove("loading");
        this.onLoaded();
        this.state.current = body;
        this.state.round = round;
        this.state.end = !!options.end;
        if (step === "discrepancy") {
          step = this.data.discrepancy ? this.data.discrepancy.step : 0;
        }
        this.state.step = resolveStep(step, body.frames.length - 1);
        this.render();
        if (!options.noHistory) {
          this.remember(options.replace);
        }
        if (round + 1 < this.rounds.length) {
          this.load(round + 1).catch(() => {});
        }
      },
      (error) => {
        if (token === this.token) {
          this.root.classList.remove("loading");
          this.onError(error);
        }
      }
    );
  }

  /** The game's end: the final standings over the last hand's last step. */
  goEnd(options) {
    return this.go(this.rounds.length - 1, -1, Object.assign({}, options || {}, { end: true }));
  }

  /** Whether the last hand's last step is shown (the moment before the game's end). */
  atLastStep() {
    const state = this.state;
    return this.ready() && !state.end && state.round + 1 >= this.rounds.length && state.step >= this.lastStep();
  }

  forward(options) {
    if (!this.ready() || this.state.end) {
      return Promise.resolve();
    }
    const state = this.state;
    if (state.step < this.lastStep()) {
      return this.go(state.round, state.step + 1, options);
    }
    if (state.round + 1 < this.rounds.length) {
      return this.go(state.round + 1, 0, options);
    }
    return this.goEnd(options);
  }

  back() {
    if (!this.ready()) {
      return;
    }
    const state = this.state;
    if (state.end) {
      this.go(state.round, -1);
    } else if (state.step > 0) {
      this.go(state.round, state.step - 1);
    } else if (state.round > 0) {
      this.go(state.round - 1, -1);
    }
  }

  turns(seat) {
    const round = this.state.current;
    round.turns = round.turns || {};
    if (!round.turns[seat]) {
      round.turns[seat] = turnSteps(round.frames, seat);
    }
    return round.turns[seat];
  }

  nextTurn() {
    if (!this.ready() || this.state.end) {
      return;
    }
    const state = this.state;
    const following = this.turns(state.seat).find((step) => step > state.step);
    if (following !== undefined) {
      this.go(state.round, following);
    } else if (state.step < this.lastStep()) {
      this.go(state.round, -1);
    } else if (state.round + 1 < this.rounds.length) {
      this.go(state.round + 1, 0);
    } else {
      this.goEnd();
    }
  }

  previousTurn() {
    if (!this.ready()) {
      return;
    }
    const state = this.state;
    if (state.end) {
      this.go(state.round, -1);
      return;
    }
    const earlier = this.turns(state.seat).filter((step) => step < state.step);
    if (earlier.length) {
      this.go(state.round, earlier[earlier.length - 1]);
    } else if (state.step > 0) {
      this.go(state.round, 0);
    } else if (state.round > 0) {
      this.go(state.round - 1, -1);
    }
  }

  /** The steps of the current hand where the viewed seat chose a discard (analysis.js); with
      ``missed``, those that did not keep the most acceptance. */
  decisions(seat, missed) {
    const round = this.state.current;
    round.decisions = round.decisions || {};
    const key = seat + (missed ? "m" : "");
    if (!round.decisions[key]) {
      round.decisions[key] = decisionSteps(round.frames, seat, missed);
    }
    return round.decisions[key];
  }

  /** Go to the viewed seat's next (``direction`` 1) or previous (-1) discard decision (with
      ``missed``: one that did not keep the most acceptance), in this hand or the nearest hand
      that has one; stay when there is none. */
  jumpDecision(direction, missed) {
    if (!this.ready()) {
      return Promise.resolve();
    }
    const state = this.state;
    const seat = state.seat;
    const here = neighbour(this.decisions(seat, missed), state.step, direction);
    if (here !== null) {
      return this.go(state.round, here);
    }
    const seek = (round) => {
      if (round < 0 || round >= this.rounds.length) {
        return Promise.resolve();
      }
      return this.load(round).then((body) => {
        const steps = decisionSteps(body.frames, seat, missed);
        if (!steps.length) {
          return seek(round + direction);
        }
        return this.go(round, direction > 0 ? steps[0] : steps[steps.length - 1]);
      });
    };
    return seek(state.round + direction).catch((error) => this.onError(error));
  }

  /** The hands loaded so far, for the game's summary: ``{hands: [frames, ...], total}``. */
  loadedHands() {
    const hands = [];
    for (let round = 0; round < this.rounds.length; round += 1) {
      if (this.loaded[round]) {
        hands.push(this.loaded[round].frames);
      }
    }
    return { hands: hands, total: this.rounds.length };
  }

  /** Load every hand's frames, one after the other (each once), calling ``onMoreLoaded``
      after each: the game's summary counts every hand. */
  loadAll() {
    if (this.loadingAll) {
      return this.loadingAll;
    }
    let chain = Promise.resolve();
    for (let round = 0; round < this.rounds.length; round += 1) {
      chain = chain.then(() => {
        if (this.loaded[round]) {
          return null;
        }
        return this.load(round).then(() => this.onMoreLoaded());
      });
    }
    this.loadingAll = chain.catch(() => {
      this.loadingAll = null;
    });
    return this.loadingAll;
  }

  /** The next (``by`` 1) or previous (-1) hand's start; after the last hand, the game's end;
      from the game's end, back to the last hand's start. */
  changeRound(by) {
    if (!this.ready()) {
      return;
    }
    const state = this.state;
    const round = state.end && by < 0 ? state.round : state.round + by;
    if (round >= 0 && round < this.rounds.length) {
      this.go(round, 0);
    } else if (round === this.rounds.length && !state.end) {
      this.goEnd();
    }
  }

  start() {
    if (this.ready()) {
      this.go(this.state.round, 0);
    }
  }

  /** The end of the hand; at the last hand's end, the game's end. */
  end() {
    if (!this.ready() || this.state.end) {
      return;
    }
    if (this.atLastStep()) {
      this.goEnd();
    } else {
      this.go(this.state.round, -1);
    }
  }

  setSeat(seat) {
    this.state.seat = ((seat % this.count) + this.count) % this.count;
    if (this.ready()) {
      this.render();
      this.remember(false);
    }
  }

  toggleHands() {
    this.state.hands = !this.state.hands;
    if (this.ready()) {
      this.render();
      this.remember(true);
    }
  }

  goDiscrepancy() {
    if (this.data.discrepancy) {
      this.go(this.data.discrepancy.round, "discrepancy");
    }
  }

  /** The browser went back or forward to ``entry`` (a history state, else the address's). */
  restore(entry) {
    entry = entry || momentOf(window.location.search);
    this.state.seat = clamp(entry.seat || 0, 0, this.count - 1);
    this.state.hands = entry.hands !== false && entry.hands !== "hidden";
    if (entry.end) {
      this.goEnd({ noHistory: true });
    } else {
      this.go(entry.round || 0, entry.step || 0, { noHistory: true });
    }
  }

  // -- Autoplay ---------------------------------------------------------------------------------

  delay() {
    const frame = this.ready() ? this.state.current.frames[this.state.step] : null;
    return (BASE_DELAY / (this.speed || 1)) * (frame && frame.result ? 4 : 1);
  }

  stop() {
    if (this.timer !== null) {
      window.clearTimeout(this.timer);
      this.timer = null;
    }
    this.playing = false;
    this.onPlaying(false);
  }

  tick() {
    this.timer = null;
    const state = this.state;
    if (!this.ready() || state.end) {
      this.stop();
      this.remember(false);
      return;
    }
    this.forward({ replace: true }).then(() => {
      if (this.playing) {
        this.timer = window.setTimeout(() => this.tick(), this.delay());
      }
    });
  }

  togglePlay() {
    if (this.playing) {
      this.stop();
      if (this.ready()) {
        this.remember(false);
      }
      return;
    }
    this.playing = true;
    this.onPlaying(true);
    this.timer = window.setTimeout(() => this.tick(), this.delay());
  }
}

/**
 * The keyboard: what each key does (docs/viewer.md "Keys"). ``actions`` maps names to
 * functions; ``help`` is the help dialog (keys other than ``?`` are ignored while it is open).
 */
export function bindKeys(nav, actions, help) {
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    const target = event.target;
    const tag = target && target.tagName;
    const slider = tag === "INPUT" && target.type === "range";
    if (slider && /^(Arrow|Page|Home$|End$)/.test(event.key)) {
      return; // the step slider moves itself (and the table with it)
    }
    if ((tag === "INPUT" && !slider) || tag === "SELECT" || tag === "TEXTAREA" || (target && target.isContentEditable)) {
      return;
    }
    if (help.open) {
      if (event.key === "?") {
        help.close();
        event.preventDefault();
      }
      return;
    }
    const key = event.key;
    const count = nav.count;
    let handled = true;
    if (key === "ArrowRight") {
      nav.forward();
    } else if (key === "ArrowLeft") {
      nav.back();
    } else if (key === "ArrowDown") {
      nav.nextTurn();
    } else if (key === "ArrowUp") {
      nav.previousTurn();
    } else if (key === "Home") {
      nav.start();
    } else if (key === "End") {
      nav.end();
    } else if (key === "PageUp" || key === "[") {
      nav.changeRound(-1);
    } else if (key === "PageDown" || key === "]") {
      nav.changeRound(1);
    } else if (key === " " || key === "Spacebar") {
      nav.togglePlay();
    } else if (key === "+" || key === "=") {
      actions.speed(1);
    } else if (key === "-" || key === "_") {
      actions.speed(-1);
    } else if (key === "h" || key === "H") {
      nav.toggleHands();
    } else if (key === "r") {
      nav.setSeat(nav.state.seat + 1);
    } else if (key === "R") {
      nav.setSeat(nav.state.seat - 1);
    } else if (key === "." || key === ",") {
      nav.jumpDecision(key === "." ? 1 : -1, false);
    } else if (key === ">" || key === "<") {
      nav.jumpDecision(key === ">" ? 1 : -1, true);
    } else if (key === "d" || key === "D") {
      nav.goDiscrepancy();
    } else if (key === "?") {
      actions.help();
    } else if (key === "Escape") {
      actions.hideResult();
      handled = false;
    } else if (/^[1-6]$/.test(key) && parseInt(key, 10) <= count) {
      nav.setSeat(parseInt(key, 10) - 1);
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  });
}
