/* The game's end after its last hand, as Tenhou shows it: the final standings, each player's
   place, final score and final points (uma and oka counted), best first. The figures are the
   page's (#viewer-data ``end``: mjlogs/game_end.py, as the game page shows them), never worked
   out here: points are the rules' (``points_by: "rules"``), else the record's own, marked as the
   record's (``"record"``), else none, with a note that says why. */

import { finalPoints, scoreText } from "./format.js";
import { placeWords, t } from "./strings.js";
import { clear, element } from "./tiles.js";

/**
 * The standings of the page's ``end`` (pure: no DOM). Returns ``{kind, rows, pointsBy}``:
 * ``kind`` is ``"standings"``, ``"incomplete"`` (the record stops before the game's end) or
 * ``"unknown"`` (complete, but no final scores are known); ``rows`` are the seats best placed
 * first (by place, then seat), each ``{seat, place, score, points, by}``; ``pointsBy`` is
 * ``"rules"`` when every seat's points are the rules', ``"record"`` when any is the record's,
 * ``""`` when no seat has points.
 */
export function standings(end) {
  const seats = (end && end.seats) || [];
  if (!end || !end.complete) {
    return { kind: "incomplete", rows: [], pointsBy: "" };
  }
  if (!seats.length || seats.some((seat) => seat.final_score === null || seat.final_score === undefined)) {
    return { kind: "unknown", rows: [], pointsBy: "" };
  }
  const rows = seats
    .map((seat) => ({
      seat: seat.seat,
      place: seat.placement,
      score: seat.final_score,
      points: seat.points === null || seat.points === undefined ? null : seat.points,
      by: seat.points === null || seat.points === undefined ? "" : seat.points_by || ""
    }))
    .sort((a, b) => (a.place || 99) - (b.place || 99) || a.seat - b.seat);
  let pointsBy = "";
  if (rows.some((row) => row.by === "record")) {
    pointsBy = "record";
  } else if (rows.some((row) => row.by === "rules")) {
    pointsBy = "rules";
  }
  return { kind: "standings", rows: rows, pointsBy: pointsBy };
}

function headRow(labels) {
  const row = element("tr");
  labels.forEach(([label, className, title]) => {
    const cell = element("th", className, label);
    cell.scope = "col";
    if (title) {
      cell.title = title;
    }
    row.appendChild(cell);
  });
  return row;
}

/**
 * Fill the game's end panel (``panel``: its ``.game-end-body``) from the page's ``end``.
 * ``context``: ``names(seat)``, ``verdict`` (the game's: which note explains points that the
 * rules did not count).
 */
export function renderGameEnd(panel, end, context) {
  const body = panel.querySelector(".game-end-body");
  clear(body);
  const found = standings(end);
  panel.setAttribute("data-kind", found.kind);
  panel.setAttribute("data-points-by", found.pointsBy);
  if (found.kind !== "standings") {
    body.appendChild(element("p", "game-end-note", t(found.kind === "incomplete" ? "notComplete" : "noFinalScores")));
    return found;
  }
  const verified = context.verdict === "verified";
  const table = element("table", "standings");
  const head = element("thead");
  head.appendChild(
    headRow([
      [t("place"), "num"],
      [t("player"), ""],
      [t("finalScore"), "num"],
      [t("finalPoints"), "num", t("pointsByRules")]
    ])
  );
  table.appendChild(head);
  const rows = element("tbody");
  found.rows.forEach((entry) => {
    const row = element("tr", entry.place === 1 ? "first" : "");
    row.setAttribute("data-seat", String(entry.seat));
    row.setAttribute("data-place", String(entry.place));
    const place = element("td", "num standing-place", entry.place ? placeWords(entry.place) : "\u2014");
    row.appendChild(place);
    row.appendChild(element("td", "name", context.names(entry.seat)));
    row.appendChild(element("td", "num score", scoreText(entry.score)));
    const points = element("td", "num final-points" + (entry.by === "record" ? " by-record" : ""));
    points.setAttribute("data-points-by", entry.by);
    if (entry.points !== null) {
      points.appendChild(document.createTextNode(finalPoints(entry.points)));
      points.setAttribute("data-points", String(entry.points));
      if (entry.by === "record") {
        const mark = element("span", "record-mark", "*");
        mark.setAttribute("aria-hidden", "true");
        points.appendChild(mark);
        points.appendChild(element("span", "visually-hidden", t("asRecorded")));
      }
    } else {
      points.textContent = "\u2014";
    }
    row.appendChild(points);
    rows.appendChild(row);
  });
  table.appendChild(rows);
  body.appendChild(table);
  let note;
  if (found.pointsBy === "rules") {
    note = t("pointsByRules");
  } else if (found.pointsBy === "record") {
    note = t(verified ? "recordPointsUnknownRules" : "recordPointsNotVerified");
  } else {
    note = t(verified ? "noPointsUnknownRules" : "noPointsNotVerified");
  }
  const line = element("p", "game-end-note points-note", note);
  line.setAttribute("data-note", found.pointsBy || "none");
  body.appendChild(line);
  return found;
}
