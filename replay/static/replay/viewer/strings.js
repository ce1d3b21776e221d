/* Every sentence and label the viewer writes, by key, with {placeholders}.

   Only English today. Translations (issue 24: English or Japanese, chosen by the browser's
   language with a switch) slot in here: add a table per language and pick it in ``setLanguage``;
   the other modules only call ``t``. Tile names and yaku names come from the notation modules
   (notation/*.js), which will take the same language. */

const ENGLISH = {
  deal: "The deal.",
  noHands: "The record has no hands.",
  loading: "Loading\u2026",
  loadFailed: "Sorry: {message}.",
  framesFailed: "the frames of hand {hand} could not be loaded (HTTP {status})",
  step: "Step {step} / {last}",
  handsShown: "Hands shown",
  handsHidden: "Hands hidden",
  play: "Play",
  pause: "Pause",
  pageTitle: "{round}, step {step} \u00b7 Replay of {title}",
  ura: "Ura",
  hiddenTile: "hidden tile",
  unknownTile: "unknown tile {code}",
  called: " (called)",
  riichiTile: " (riichi)",
  tsumogiri: " (drawn and discarded)",
  dealer: " (dealer)",
  noSeatWind: "No seat wind",
  riichi: "Riichi",
  riichiStick: "{name} declared riichi: a 1,000-point stick on the table",
  kita: "North tiles set aside (kita): {count}",
  flowersAside: "Flowers set aside: {count}",
  closedKan: "Closed kan",
  meldFrom: "{meld} from {name}",
  // The result panel.
  resultHeading: "{round}: {what}",
  winners: "{count} winners",
  win: "win",
  winsByTsumo: "{name} wins by tsumo",
  winsByRon: "{name} wins by ron from {from}",
  winsBySelfDraw: "{name} wins by self-draw",
  winsOnTile: "{name} wins on a tile from {from}",
  points: "{points} points",
  exhaustiveDraw: "exhaustive draw",
  nagashiMangan: "nagashi mangan",
  abortiveDraw: "abortive draw",
  nobodyTenpai: "Nobody is tenpai.",
  wallEmpty: "The wall is empty: nobody pays.",
  isTenpai: "{name} is tenpai",
  isNoten: "{name} is not tenpai",
  nagashiText: "Nagashi mangan: {names}.",
  player: "Player",
  change: "Change",
  score: "Score",
  // The analysis panel.
  complete: "Complete hand.",
  tenpai: "Tenpai.",
  ready: "Ready: one tile from a winning shape.",
  shanten: "{n}-shanten ({n} tile{s} from tenpai).",
  noUzjeShanten: "Neither complete nor ready (no shanten count for \u00dczje).",
  waits: "Waits",
  unseen: "{n} unseen",
  unseenInAll: "{n} unseen in all",
  waitsAfterDiscard: "Waits show after the discard.",
  // Discrepancies.
  scoreMismatch: "Score mismatch:",
  illegalAction: "Illegal action:",
  rulesGive: "The rules give",
  rulesAllow: "The rules allow",
  illegalHere: " \u2014 next, the record has an illegal action: {found}.",
  discrepancyHere: " \u2014 the first discrepancy is here: {what}.",
  // The hand selector.
  results: { win: "win", exhaustive_draw: "draw", nagashi_mangan: "nagashi mangan", abortive_draw: "abortive draw", unfinished: "unfinished" },
  winds: { E: "East", S: "South", W: "West", N: "North" }
};

const LANGUAGES = { en: ENGLISH };
let table = ENGLISH;

/** Choose the language of the strings (only "en" exists yet). */
export function setLanguage(code) {
  table = LANGUAGES[code] || ENGLISH;
}

/** The string of ``key`` with ``{name}`` replaced by ``values.name``; a table when the entry is
    one (``t("winds").E``). */
export function t(key, values) {
  const entry = Object.prototype.hasOwnProperty.call(table, key) ? table[key] : ENGLISH[key];
  if (typeof entry !== "string") {
    return entry === undefined ? key : entry;
  }
  if (!values) {
    return entry;
  }
  return entry.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole
  );
}

/** "E1" -> "East 1". */
export function roundWords(name) {
  const wind = t("winds")[String(name).charAt(0)];
  return wind ? wind + " " + String(name).slice(1) : String(name);
}
