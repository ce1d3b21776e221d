/* Study aids: the decisions of a seat and its discards' tile acceptance, read from the frames.

   The engine computes the acceptance once (engine/study.py): a frame where a seat chose a
   discard carries ``study`` (docs/replay.md "Frames"): every discard it could make, best first,
   each with the tiles whose draw lowers its shanten and how many of them the seat cannot see,
   and the discard it made with its loss. These pure functions (no DOM) read it, for the panel
   (panel.js), the keys that jump between decisions (navigation.js) and the per-hand and
   per-game summaries; tests/browser/test_viewer_modules.py checks them on frames worked out
   by hand. */

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
      raises: option.shanten > study.shanten
    };
  });
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
 * ``lost`` (copies of acceptance given up by the others, summed).
 */
export function summary(frames, seat) {
  const out = { decisions: 0, kept: 0, raised: 0, lost: 0 };
  frames.forEach((frame) => {
    const study = studyOf(frame, seat);
    if (!study) {
      return;
    }
    out.decisions += 1;
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
  const out = { decisions: 0, kept: 0, raised: 0, lost: 0, hands: 0 };
  hands.forEach((frames) => {
    const one = summary(frames, seat);
    out.decisions += one.decisions;
    out.kept += one.kept;
    out.raised += one.raised;
    out.lost += one.lost;
    out.hands += 1;
  });
  return out;
}

/** A share as the pages write it: 0.625 -> "62.5%"; "–" without decisions. */
export function share(kept, decisions) {
  return decisions ? ((100 * kept) / decisions).toFixed(1) + "%" : "\u2013";
}
