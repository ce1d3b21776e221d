/* Study aids: the decisions of a seat and its discards' tile acceptance, read from the frames.

   The engine computes the acceptance once (engine/study.py): a frame where a seat chose a
   discard carries ``study`` (docs/replay.md "Frames"): every discard it could make, best first,
   each with the tiles whose draw lowers its shanten and how many of them the seat cannot see,
   and the discard it made with its loss. Acceptance is speed alone: the study also carries the
   other side of each decision (docs/stats.md "Value and defence"): each discard's yaku still in
   reach, its safety against each seat in riichi (``riichi``), and the ``trade`` the discard made
   when it gave up acceptance for value or defence. These pure functions (no DOM) read it, for
   the panel (panel.js), the keys that jump between decisions (navigation.js) and the per-hand
   and per-game summaries; tests/browser/test_viewer_modules.py checks them on frames worked out
   by hand. */

/** The safety signs, safest first (engine.study.discard_safety; ``null``: no sign). */
export const SAFETY_SIGNS = ["genbutsu", "suji", "kabe", "one_chance"];

/** The study aid of ``frame`` when ``seat`` chose a discard there, else ``null``. */
function studyOf(frame, seat) {
  const study = frame && frame.study;
  return study && study.seat === seat ? study : null;
}

/**
 * The discards ``seat`` could make at ``frame``, best first (the engine's order: lowest shanten
 * left, then most copies accepted), or ``null`` when the seat chose no discard there. Each:
 * ``tile``, ``shanten`` (after it), ``count`` (copies accepted), ``tiles`` (each accepted kind
 * with its ``unseen`` copies), ``chosen`` (the discard made), ``best`` (it keeps the most
 * acceptance), ``loss`` (copies fewer than the best; ``null`` when it raises the shanten) and
 * ``raises``.
 */
export function discardChoices(frame, seat) {
  const study = studyOf(frame, seat);
  if (!study) {
    return null;
  }
  return study.options.map((option) => {
    const level = option.shanten === study.shanten;
    return {
      tile: option.tile,
      shanten: option.shanten,
      count: option.count,
      tiles: option.tiles.map((code) => ({ tile: code, unseen: study.unseen[code] || 0 })),
      chosen: option.tile === study.discard,
      best: level && option.count === study.best,
      loss: level ? study.best - option.count : null,
      raises: option.shanten > study.shanten,
      // The other side: null when the engine does not judge value here (or frames older than
      // it); one sign per seat of ``riichiSeats`` (empty without a riichi).
      yaku: Array.isArray(option.yaku) ? option.yaku : null,
      safety: Array.isArray(option.safety) ? option.safety : []
    };
  });
}

/** The other seats in riichi the seat faced at ``frame`` (their riichi discard made), or []. */
export function riichiSeats(frame, seat) {
  const study = studyOf(frame, seat);
  return study && Array.isArray(study.riichi) ? study.riichi : [];
}

/** What the discard made at ``frame`` kept that every best discard gives up: ``value``,
    ``defence`` (engine.study.trade_of), or [] (none, or no decision of ``seat``). */
export function tradeOf(frame, seat) {
  const study = studyOf(frame, seat);
  return study && Array.isArray(study.trade) ? study.trade : [];
}

/** The yaku every one of ``choices`` keeps in reach, in the first's order; ``null`` when the
    engine does not judge value here. */
export function commonYaku(choices) {
  if (!choices.length || choices.some((choice) => choice.yaku === null)) {
    return null;
  }
  return choices[0].yaku.filter((name) => choices.every((choice) => choice.yaku.includes(name)));
}

/** Whether a discard is genbutsu against every seat in riichi (false without a riichi). */
export function allGenbutsu(choice) {
  return choice.safety.length > 0 && choice.safety.every((sign) => sign === "genbutsu");
}

/** Whether a discard made facing a riichi pushes: not genbutsu against every riichi, and it
    leaves two or more shanten (docs/stats.md "Value and defence"). */
export function pushes(choice) {
  return choice.safety.length > 0 && !allGenbutsu(choice) && choice.shanten >= 2;
}

/** The steps of a hand where ``seat`` chose a discard (its draws and calls outside riichi that
    a discard followed); with ``missedOnly``, those whose discard did not keep the most
    acceptance. */
export function decisionSteps(frames, seat, missedOnly) {
  const steps = [];
  frames.forEach((frame, step) => {
    const study = studyOf(frame, seat);
    if (study && (!missedOnly || !study.kept)) {
      steps.push(step);
    }
  });
  return steps;
}

/** The first of ``steps`` after ``step`` (``direction`` 1) or the last before it (-1), or
    ``null``. */
export function neighbour(steps, step, direction) {
  if (direction > 0) {
    const found = steps.find((candidate) => candidate > step);
    return found === undefined ? null : found;
  }
  const earlier = steps.filter((candidate) => candidate < step);
  return earlier.length ? earlier[earlier.length - 1] : null;
}

/**
 * How ``seat`` discarded over one hand's frames: ``decisions`` (discards chosen), ``kept``
 * (those that kept the most acceptance), ``raised`` (those that raised the shanten) and
 * ``lost`` (copies of acceptance given up by the others, summed); ``facing`` (decisions facing
 * a riichi) and ``genbutsu`` (of those, discards genbutsu against every riichi).
 */
export function summary(frames, seat) {
  const out = { decisions: 0, kept: 0, raised: 0, lost: 0, facing: 0, genbutsu: 0 };
  frames.forEach((frame) => {
    const study = studyOf(frame, seat);
    if (!study) {
      return;
    }
    out.decisions += 1;
    if (Array.isArray(study.riichi) && study.riichi.length) {
      out.facing += 1;
      const made = study.options.find((option) => option.tile === study.discard);
      if (made && (made.safety || []).every((sign) => sign === "genbutsu")) {
        out.genbutsu += 1;
      }
    }
    if (study.kept) {
      out.kept += 1;
    } else if (study.loss === null) {
      out.raised += 1;
    } else {
      out.lost += study.loss;
    }
  });
  return out;
}

/** :func:`summary` over several hands (each a list of frames): a game's, from the hands
    loaded so far. */
export function gameSummary(hands, seat) {
  const out = { decisions: 0, kept: 0, raised: 0, lost: 0, facing: 0, genbutsu: 0, hands: 0 };
  hands.forEach((frames) => {
    const one = summary(frames, seat);
    out.decisions += one.decisions;
    out.kept += one.kept;
    out.raised += one.raised;
    out.lost += one.lost;
    out.facing += one.facing;
    out.genbutsu += one.genbutsu;
    out.hands += 1;
  });
  return out;
}

/** A share as the pages write it: 0.625 -> "62.5%"; "–" without decisions. */
export function share(kept, decisions) {
  return decisions ? ((100 * kept) / decisions).toFixed(1) + "%" : "\u2013";
}
