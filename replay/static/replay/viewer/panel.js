/* The analysis panel beside the table: the viewed seat's shanten and, when it is tenpai, its
   waits with the copies of each it cannot see (the engine's figures, from the frames); then the
   study aids of analysis.js: where the seat chose a discard, what the figures measure (speed
   alone), every discard it could make with its tile acceptance, best first, the yaku each
   keeps in reach and its safety against a riichi, the one it made marked with what it cost or
   traded, and how often its discards kept the most acceptance (and, facing a riichi, were
   genbutsu) over the hand and the game. */

import {
  commonYaku,
  discardChoices,
  gameSummary,
  pushes,
  riichiSeats,
  share,
  summary,
  tradeOf
} from "./analysis.js";
import { t, yakuName } from "./strings.js";
import { clear, element, tile } from "./tiles.js";

/**
 * Draw the panel for ``seat`` at ``frame``. ``context``: ``notation``, ``names(seat)``, and for
 * the study aids ``frames`` (the hand's) and ``game`` (``{hands: [frames, ...], total}``: the
 * hands loaded so far, and how many the game has).
 */
export function renderAnalysis(panel, frame, seat, context) {
  const notation = context.notation;
  const view = frame.seats[seat];
  panel.querySelector(".seat-name").textContent = context.names(seat);
  const line = panel.querySelector(".shanten");
  const shanten = view.shanten;
  let text;
  if (!notation.shantenKnown && (shanten === null || shanten === undefined)) {
    // The engine has no exact shanten for Ùzje: only complete and ready hands are shown.
    text = t("noUzjeShanten");
  } else if (shanten === null || shanten === undefined) {
    text = "";
  } else if (shanten < 0) {
    text = t("complete");
  } else if (shanten === 0) {
    text = notation.shantenKnown ? t("tenpai") : t("ready");
  } else {
    text = t("shanten", { n: shanten, s: shanten === 1 ? "" : "s" });
  }
  line.textContent = text;
  line.setAttribute("data-shanten", String(shanten));
  const box = panel.querySelector(".waits");
  clear(box);
  const waits = view.waits || [];
  if (waits.length) {
    let total = 0;
    box.appendChild(element("span", "label", t("waits")));
    const list = element("ul", "wait-list");
    list.setAttribute("data-part", "waits");
    waits.forEach((wait) => {
      total += wait.unseen;
      const item = element("li", "wait" + (wait.unseen === 0 ? " dead" : ""));
      item.setAttribute("data-tile", wait.tile);
      item.setAttribute("data-unseen", String(wait.unseen));
      item.appendChild(tile(wait.tile, notation));
      item.appendChild(element("span", "unseen", "\u00d7" + wait.unseen));
      item.title = t("unseen", { n: wait.unseen });
      list.appendChild(item);
    });
    box.appendChild(list);
    box.appendChild(element("span", "total", t("unseenInAll", { n: total })));
  } else if (shanten === 0 && view.drawn) {
    box.appendChild(element("span", "muted", t("waitsAfterDiscard")));
  }
  renderStudy(studyBox(panel), frame, seat, context);
}

/** The panel's study part (made on first use: the page's template has no place for it). */
function studyBox(panel) {
  let box = panel.querySelector(".study");
  if (!box) {
    box = element("div", "study");
    box.setAttribute("data-part", "study");
    panel.appendChild(box);
  }
  return box;
}

function shantenWords(shanten) {
  return shanten === 0 ? t("studyTenpai") : t("badgeShanten", { n: shanten });
}

/** The study aids: the discards of this moment, the verdict on the one made, the summaries and
    the buttons that jump between the seat's decisions (the keys , . < >). */
export function renderStudy(box, frame, seat, context) {
  clear(box);
  const notation = context.notation;
  if (!notation.shantenKnown) {
    box.appendChild(element("p", "muted", t("studyNone")));
    return;
  }
  const choices = discardChoices(frame, seat);
  if (choices) {
    // What the figures measure, then the discards that leave the lowest shanten, best first;
    // those that raise it folded away (open when the discard played is one of them).
    const lowest = choices[0].shanten;
    const level = choices.filter((choice) => !choice.raises);
    const raising = choices.filter((choice) => choice.raises);
    const riichi = riichiSeats(frame, seat);
    const common = commonYaku(choices);
    const sides = { common: common || [], riichi: riichi, names: context.names };
    const measures = element("p", "study-measures", t("studyMeasures"));
    measures.setAttribute("data-part", "study-measures");
    box.appendChild(measures);
    box.appendChild(
      element("h3", "study-heading", t("studyHeading", { shanten: shantenWords(lowest) }))
    );
    box.appendChild(valueLine(common, choices));
    box.appendChild(choiceList(level, notation, sides));
    if (raising.length) {
      const more = element("details", "raising");
      more.open = raising.some((choice) => choice.chosen);
      more.appendChild(
        element(
          "summary",
          "",
          t("studyRaising", { n: raising.length, shanten: shantenWords(raising[0].shanten) })
        )
      );
      more.appendChild(choiceList(raising, notation, sides));
      box.appendChild(more);
    }
    const made = choices.find((choice) => choice.chosen);
    if (made) {
      const trade = tradeOf(frame, seat);
      box.appendChild(verdict(made, choices, trade));
      if (trade.length) {
        box.appendChild(tradeLine(made, choices, trade));
      }
      riichi.forEach((other, index) => box.appendChild(safetyLine(made, other, index, context)));
      if (pushes(made)) {
        const push = element("p", "study-push", t("studyPush", { shanten: shantenWords(made.shanten) }));
        push.setAttribute("data-part", "study-push");
        box.appendChild(push);
      }
    }
  } else {
    box.appendChild(element("p", "muted study-none-here", t("studyNoDecision")));
  }
  box.appendChild(summaries(seat, context));
  box.appendChild(jumps());
}

/** Names of yaku in the page's language, as a list ("Riichi, All simples"). */
function yakuList(names) {
  return names.map(yakuName).join(t("listSeparator"));
}

/** The yaku every discard keeps in reach (each discard's others are marked on it). */
function valueLine(common, choices) {
  let text;
  if (common === null) {
    text = t("studyValueUnknown");
  } else if (common.length) {
    text = t("studyCommonYaku", { yaku: yakuList(common) });
  } else if (choices.every((choice) => !choice.yaku.length)) {
    text = t("studyNoYaku");
  } else {
    text = t("studyNoCommonYaku");
  }
  const node = element("p", "study-value", text);
  node.setAttribute("data-part", "study-value");
  node.setAttribute("data-common", (common || []).join(" "));
  return node;
}

function choiceList(choices, notation, sides) {
  const list = element("ol", "discard-list");
  list.setAttribute("data-part", "discards");
  choices.forEach((choice) => list.appendChild(choiceItem(choice, notation, sides)));
  return list;
}

function safetyWords(sign) {
  return t(sign ? "safety_" + sign : "safety_none");
}

/** The other side of one discard: the yaku it keeps that not every discard keeps, and its sign
    against each seat in riichi. */
function sidesOf(choice, sides) {
  const node = element("span", "sides");
  (choice.yaku || [])
    .filter((name) => !sides.common.includes(name))
    .forEach((name) => {
      const badge = element("span", "yaku-badge", yakuName(name));
      badge.setAttribute("data-yaku", name);
      badge.title = t("yakuBadgeTitle", { yaku: yakuName(name) });
      node.appendChild(badge);
    });
  choice.safety.forEach((sign, index) => {
    const badge = element("span", "safety-badge safety-" + (sign || "none"), safetyWords(sign));
    badge.setAttribute("data-safety", sign || "");
    badge.title = t("safetyBadgeTitle", {
      name: sides.names(sides.riichi[index]),
      sign: safetyWords(sign)
    });
    node.appendChild(badge);
  });
  return node;
}

function choiceItem(choice, notation, sides) {
  const classes = ["discard-choice"];
  if (choice.chosen) {
    classes.push("chosen");
  }
  if (choice.best) {
    classes.push("best");
  }
  if (choice.raises) {
    classes.push("raises");
  }
  const item = element("li", classes.join(" "));
  item.setAttribute("data-tile", choice.tile);
  item.setAttribute("data-shanten", String(choice.shanten));
  item.setAttribute("data-count", String(choice.count));
  item.setAttribute("data-loss", choice.loss === null ? "" : String(choice.loss));
  item.setAttribute("data-yaku", (choice.yaku || []).join(" "));
  item.setAttribute("data-safety", choice.safety.map((sign) => sign || "").join(","));
  const head = element("span", "discard-head");
  head.appendChild(tile(choice.tile, notation, "discard-tile"));
  item.appendChild(head);
  const accepts = element("span", "accepts");
  choice.tiles.forEach((accepted) => {
    const one = element("span", "accept" + (accepted.unseen === 0 ? " dead" : ""));
    one.setAttribute("data-tile", accepted.tile);
    one.setAttribute("data-unseen", String(accepted.unseen));
    one.appendChild(tile(accepted.tile, notation));
    one.appendChild(element("span", "unseen", "\u00d7" + accepted.unseen));
    one.title = t("unseen", { n: accepted.unseen });
    accepts.appendChild(one);
  });
  item.appendChild(accepts);
  const count = element("span", "count", String(choice.count));
  count.title = t("unseenInAll", { n: choice.count });
  item.appendChild(count);
  if (choice.chosen) {
    item.appendChild(element("span", "played", t("studyPlayed")));
  }
  const other = sidesOf(choice, sides);
  if (other.childNodes.length) {
    item.appendChild(other);
  }
  return item;
}

function verdict(made, choices, trade) {
  let text;
  let kind;
  if (made.best) {
    text = t("studyKept");
    kind = "kept";
  } else if (made.raises) {
    text = t("studyRaised", { made: shantenWords(made.shanten), best: shantenWords(choices[0].shanten) });
    kind = "raised";
  } else {
    text = t("studyLost", { n: made.loss, best: choices[0].count });
    kind = "lost";
  }
  const node = element("p", "study-verdict " + kind + (trade.length ? " traded" : ""), text);
  node.setAttribute("data-verdict", kind);
  return node;
}

/** What the discard made kept that every discard keeping the most gives up (a trade, not a
    plain loss): the yaku, or the safety against the riichi. */
function tradeLine(made, choices, trade) {
  const tops = choices.filter((choice) => choice.best);
  const lines = [];
  if (trade.includes("value")) {
    const kept = made.yaku.filter((name) => tops.every((top) => !(top.yaku || []).includes(name)));
    lines.push(t("studyTradeValue", { yaku: yakuList(kept) }));
  }
  if (trade.includes("defence")) {
    lines.push(t("studyTradeDefence"));
  }
  const node = element("p", "study-trade", lines.join(" "));
  node.setAttribute("data-part", "study-trade");
  node.setAttribute("data-trade", trade.join(" "));
  return node;
}

/** How safe the discard made was against one seat in riichi, and what that sign means. */
function safetyLine(made, other, index, context) {
  const sign = made.safety[index] || null;
  const node = element(
    "p",
    "study-safety safety-" + (sign || "none"),
    t("studySafetyPlayed", {
      name: context.names(other),
      sign: safetyWords(sign),
      meaning: t(sign ? "safetyMeaning_" + sign : "safetyMeaning_none")
    })
  );
  node.setAttribute("data-part", "study-safety");
  node.setAttribute("data-seat", String(other));
  node.setAttribute("data-safety", sign || "");
  return node;
}

function summaries(seat, context) {
  const node = element("div", "study-summary");
  const hand = summary(context.frames || [], seat);
  const handLine = element(
    "p",
    "hand-summary",
    t("studyHand", { kept: hand.kept, decisions: hand.decisions, share: share(hand.kept, hand.decisions) })
  );
  handLine.setAttribute("data-kept", String(hand.kept));
  handLine.setAttribute("data-decisions", String(hand.decisions));
  node.appendChild(handLine);
  if (hand.facing) {
    node.appendChild(defenceLine("hand-defence", "studyDefenceHand", hand));
  }
  const game = context.game;
  if (game && game.hands.length) {
    const all = gameSummary(game.hands, seat);
    const values = {
      kept: all.kept,
      decisions: all.decisions,
      share: share(all.kept, all.decisions),
      hands: all.hands,
      total: game.total
    };
    const gameLine = element(
      "p",
      "game-summary",
      all.hands < game.total ? t("studyGameSoFar", values) : t("studyGame", values)
    );
    gameLine.setAttribute("data-kept", String(all.kept));
    gameLine.setAttribute("data-decisions", String(all.decisions));
    gameLine.setAttribute("data-hands", String(all.hands));
    node.appendChild(gameLine);
    if (all.facing) {
      node.appendChild(defenceLine("game-defence", "studyDefenceGame", all));
    }
  }
  return node;
}

/** Facing a riichi: how many of the seat's discards were genbutsu against every riichi. */
function defenceLine(name, key, counts) {
  const line = element(
    "p",
    name,
    t(key, {
      genbutsu: counts.genbutsu,
      facing: counts.facing,
      share: share(counts.genbutsu, counts.facing)
    })
  );
  line.setAttribute("data-genbutsu", String(counts.genbutsu));
  line.setAttribute("data-facing", String(counts.facing));
  return line;
}

/** The buttons of the decision keys (for touch screens): viewer.js listens to them. */
function jumps() {
  const row = element("div", "study-jumps");
  [
    ["previous", "studyPrevious", "studyPreviousTitle"],
    ["next", "studyNext", "studyNextTitle"],
    ["previous-missed", "studyPreviousMissed", "studyPreviousMissedTitle"],
    ["next-missed", "studyNextMissed", "studyNextMissedTitle"]
  ].forEach(([name, label, title]) => {
    const button = element("button", "study-jump", t(label));
    button.type = "button";
    button.setAttribute("data-study", name);
    button.title = t(title);
    row.appendChild(button);
  });
  return row;
}
