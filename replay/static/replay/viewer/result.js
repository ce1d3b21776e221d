/* The result panel at the end of a hand, over the table: each win with the winner's hand, its
   yaku, han, fu, limit and points and who paid what; each hand at a draw; the dora indicators;
   every player's change and score. */

import { abortWords, handTitle, t, yakuName } from "./strings.js";
import { points, scoreText, signed, words } from "./format.js";
import { clear, element, meld, tile, tiles } from "./tiles.js";

/** A hand with its melds, the winning tile set apart at the end. */
function handRow(hand, melds, winning, owner, context) {
  const row = element("div", "result-hand");
  const concealed = hand.slice();
  if (winning && concealed.length % 3 === 2) {
    const index = concealed.lastIndexOf(winning);
    if (index >= 0) {
      concealed.splice(index, 1);
    }
  }
  const part = element("span", "hand");
  part.setAttribute("data-part", "hand");
  part.appendChild(tiles(concealed, context.notation));
  if (winning) {
    part.appendChild(tile(winning, context.notation, "winning"));
  }
  row.appendChild(part);
  if (melds && melds.length) {
    const groups = element("span", "melds");
    melds.forEach((group) => groups.appendChild(meld(group, owner, context.count, context.notation, context.names)));
    row.appendChild(groups);
  }
  return row;
}

function payments(deltas, names) {
  const list = element("ul", "payments");
  deltas.forEach((delta, seat) => {
    if (!delta) {
      return;
    }
    const item = element("li", delta > 0 ? "plus" : "minus");
    item.setAttribute("data-seat", String(seat));
    item.appendChild(element("span", "who", names(seat)));
    item.appendChild(document.createTextNode(" "));
    item.appendChild(element("span", "amount", signed(delta)));
    list.appendChild(item);
  });
  return list.firstChild ? list : null;
}

function winBox(win, frame, context) {
  const notation = context.notation;
  const names = context.names;
  const box = element("article", "win");
  box.setAttribute("data-seat", String(win.seat));
  const tsumo = win.from === null || win.from === undefined || win.from === win.seat;
  const heading = tsumo
    ? t(notation.selfDraw, { name: names(win.seat) })
    : t(notation.fromDiscard, { name: names(win.seat), from: names(win.from) });
  box.appendChild(element("h3", "winner", heading));
  box.appendChild(handRow(win.hand || [], win.melds || [], win.tile, win.seat, context));

  const value = notation.value(win);
  const yaku = element("ul", "yaku");
  (win.yaku || []).forEach((pair) => {
    const item = element("li");
    item.appendChild(element("span", "yaku-name", yakuName(pair[0])));
    item.appendChild(element("span", "yaku-han", notation.yakuWorth(win, pair[1])));
    yaku.appendChild(item);
  });
  box.appendChild(yaku);

  const line = element("p", "value" + (value.yakuman ? " yakuman" : ""));
  line.setAttribute("data-han", String(win.han));
  line.setAttribute("data-fu", String(win.fu));
  if (value.text) {
    line.appendChild(element("span", "han-fu", value.text));
  }
  if (value.limit) {
    line.appendChild(element("span", "limit", (value.text ? " " : "") + value.limit));
  }
  const total = element("strong", "points", " " + t("points", { points: points(win.points || 0) }));
  total.setAttribute("data-points", String(win.points));
  line.appendChild(total);
  box.appendChild(line);
  if (win.deltas) {
    const list = payments(win.deltas, names);
    if (list) {
      box.appendChild(list);
    }
  }
  return box;
}

/** Every hand at a draw (``article.tenpai`` for the tenpai ones); ``say`` whether each is
    tenpai (not at an abortive draw). */
function drawHands(frame, tenpai, context, body, say) {
  const notation = context.notation;
  const names = context.names;
  const ready = {};
  (tenpai || []).forEach((entry) => {
    ready[entry.seat] = entry;
  });
  const grid = element("div", "draw-hands");
  frame.seats.forEach((view, seat) => {
    const entry = ready[seat];
    const box = element("article", entry ? "tenpai" : "noten");
    box.setAttribute("data-seat", String(seat));
    let heading;
    if (say && notation.riichiSticks) {
      heading = t(entry ? "isTenpai" : "isNoten", { name: names(seat) });
    } else {
      heading = names(seat);
    }
    box.appendChild(element("h3", "", heading));
    const hand = entry ? entry.hand : view.hand.concat(view.drawn ? [view.drawn] : []);
    box.appendChild(handRow(hand || [], (entry ? entry.melds : view.melds) || [], null, seat, context));
    grid.appendChild(box);
  });
  body.appendChild(grid);
}

function indicators(frame, context) {
  const line = element("p", "indicators");
  line.appendChild(element("span", "label", context.notation.indicatorsLabel + " "));
  line.appendChild(tiles(frame.dora_indicators || [], context.notation));
  if ((frame.ura_indicators || []).length) {
    line.appendChild(element("span", "label", " " + t("ura") + " "));
    const ura = element("span", "ura");
    ura.setAttribute("data-part", "ura");
    ura.appendChild(tiles(frame.ura_indicators, context.notation));
    line.appendChild(ura);
  }
  return line;
}

function scoresTable(result, names) {
  const table = element("table", "scores-after");
  const head = element("thead");
  const headRow = element("tr");
  [t("player"), t("change"), t("score")].forEach((label, index) => {
    const cell = element("th", index ? "num" : "", label);
    cell.scope = "col";
    headRow.appendChild(cell);
  });
  head.appendChild(headRow);
  table.appendChild(head);
  const rows = element("tbody");
  result.scores_after.forEach((score, seat) => {
    const row = element("tr");
    row.setAttribute("data-seat", String(seat));
    row.appendChild(element("td", "", names(seat)));
    const delta = (result.deltas || [])[seat] || 0;
    row.appendChild(element("td", "num delta" + (delta > 0 ? " plus" : delta < 0 ? " minus" : ""), signed(delta)));
    row.appendChild(element("td", "num score", scoreText(score)));
    rows.appendChild(row);
  });
  table.appendChild(rows);
  return table;
}

/**
 * Fill the panel with ``frame``'s result. ``context``: ``notation``, ``names(seat)``,
 * ``count``. Returns false when the frame has no result.
 */
export function renderResult(panel, frame, context) {
  const result = frame.result;
  if (!result) {
    return false;
  }
  const body = panel.querySelector(".result-body");
  const heading = panel.querySelector("#result-heading");
  clear(body);
  panel.setAttribute("data-type", result.type);
  const round = handTitle(frame.round_name, frame.honba);
  let what;
  if (result.type === "win") {
    what = result.wins.length > 1 ? t("winners", { count: result.wins.length }) : t("win");
    const wins = element("div", "wins" + (result.wins.length > 1 ? " several" : ""));
    result.wins.forEach((win) => wins.appendChild(winBox(win, frame, context)));
    body.appendChild(wins);
    body.appendChild(indicators(frame, context));
  } else if (result.type === "exhaustive_draw") {
    what = t("exhaustiveDraw");
    const tenpai = result.tenpai || [];
    if (!context.notation.riichiSticks) {
      body.appendChild(element("p", "tenpai-none", t("wallEmpty")));
    } else if (!tenpai.length) {
      body.appendChild(element("p", "tenpai-none", t("nobodyTenpai")));
    }
    drawHands(frame, tenpai, context, body, true);
  } else if (result.type === "nagashi_mangan") {
    what = t("nagashiMangan");
    body.appendChild(
      element("p", "nagashi", t("nagashiText", { names: (result.seats || []).map(context.names).join(", ") }))
    );
    drawHands(frame, result.tenpai || [], context, body, true);
  } else if (result.type === "abortive_draw") {
    what = t("abortiveDraw");
    body.appendChild(element("p", "abort", abortWords(result.kind, result.text)));
    drawHands(frame, [], context, body, false);
  } else {
    what = words(result.type);
  }
  heading.textContent = t("resultHeading", { round: round, what: what });
  if (result.scores_after) {
    body.appendChild(scoresTable(result, context.names));
  }
  return true;
}
