/* Every sentence and label the viewer writes, by key, with {placeholders}, in English and in
   Japanese (issue 24). The page says its language (``<html lang>``, set by Django from the
   visitor's choice or browser) and viewer.js calls ``setLanguage``; the other modules only call
   ``t`` (and ``language()`` where a notation writes its own words: notation/*.js). A new key
   goes into ENGLISH and JAPANESE both (tests/browser/test_translations.py checks).

   ``import { words } from "./format.js"`` only: no other viewer module, so every module may
   import this one. */

import { words } from "./format.js";

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
  // The game's end (end.js): the final standings after the last hand.
  gameEnd: "Game end",
  gameOver: "The game is over: the final standings.",
  toGameEnd: "Final standings \u25b6",
  toGameEndTitle: "The game's end: final scores, places and points (\u2192)",
  place: "Place",
  finalScore: "Final score",
  finalPoints: "Points",
  ordinals: ["1st", "2nd", "3rd", "4th", "5th", "6th"],
  ordinalOther: "{n}th",
  pointsByRules: "Points by the rules: the final score less the return, in thousands, with uma and oka.",
  asRecorded: " (as the record states)",
  recordPointsUnknownRules:
    "* Points as the record states them (its own final figures, such as Tenhou\u2019s owari). The rules engine does not know how this game counts final points (its uma and rounding are its own, and the record does not give them), so it did not count them.",
  recordPointsNotVerified:
    "* Points as the record states them (its own final figures, such as Tenhou\u2019s owari). The rules engine has not verified this game whole, so it did not count them.",
  noPointsUnknownRules:
    "No final points: the rules engine does not know how this game counts them, and the record does not state them.",
  noPointsNotVerified:
    "No final points: the rules engine has not verified this game whole, and the record does not state them.",
  notComplete: "The record stops before the end of the game: it has no final standings.",
  noFinalScores:
    "The final scores are not known: the record does not state them, and the rules engine has not verified the game whole.",
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
  illegalHere: " \u2014 next, the record has an action the rules do not allow: {action}.",
  discrepancyHere: " \u2014 the first discrepancy is here: {what}.",
  // The hand selector.
  results: { win: "win", exhaustive_draw: "draw", nagashi_mangan: "nagashi mangan", abortive_draw: "abortive draw", unfinished: "unfinished" },
  winds: { E: "East", S: "South", W: "West", N: "North" },
  // Hand names: "East 1" (the centre, the result), "E1" and "E1-2" (the hand selector).
  roundWords: "{wind} {number}",
  roundCode: "{wind}{number}",
  windLetters: { E: "E", S: "S", W: "W", N: "N" },
  withHonba: "{round}-{honba}",
  // Melds by type, their shape's words otherwise; the shanten badge beside a seat's name.
  melds: { chi: "Chi", pon: "Pon", open_kan: "Open kan", added_kan: "Added kan", closed_kan: "Closed kan" },
  badgeComplete: "Complete",
  badgeShanten: "{n}-shanten",
  // The study aids (analysis.js, panel.js): each discard's tile acceptance, the decision keys.
  studyHeading: "Discards that leave {shanten}, best first: the tiles each accepts (\u00d7 unseen) and their total",
  studyRaising: "{n} more raise the shanten to {shanten}",
  studyTenpai: "tenpai",
  studyPlayed: "played",
  studyKept: "The discard played kept the most acceptance.",
  studyLost: "The discard played lowers the acceptance by {n} (the best accepts {best}).",
  studyRaised: "The discard played raises the shanten: {made}, where the best discards leave {best}.",
  studyNone: "No tile acceptance for \u00dczje (the engine counts no shanten for it).",
  studyNoDecision: "No discard chosen here by this seat. The keys “,” and “.” jump to its decisions.",
  studyHand: "This hand: the most acceptance kept in {kept} of {decisions} discards ({share}).",
  studyGame: "This game: {kept} of {decisions} ({share}).",
  studyGameSoFar: "This game, {hands} of {total} hands counted so far: {kept} of {decisions} ({share}).",
  studyPrevious: "\u25c0 Decision",
  studyNext: "Decision \u25b6",
  studyPreviousMissed: "\u25c0 Less acceptance",
  studyNextMissed: "Less acceptance \u25b6",
  studyPreviousTitle: "Previous discard decision of this seat (,)",
  studyNextTitle: "Next discard decision of this seat (.)",
  studyPreviousMissedTitle: "Previous decision that did not keep the most acceptance (<)",
  studyNextMissedTitle: "Next decision that did not keep the most acceptance (>)",
  // The other side of a decision (docs/stats.md "Value and defence"): value and defence.
  studyMeasures:
    "Tile acceptance measures speed alone: how many draws bring the hand closer to tenpai. It does not weigh the hand\u2019s value nor the danger of a discard; the yaku each discard keeps in reach and, against a riichi, its safety are shown beside it.",
  listSeparator: ", ",
  studyCommonYaku: "Every discard keeps in reach: {yaku}.",
  studyNoCommonYaku: "No yaku is kept in reach by every discard: each discard\u2019s are marked on it.",
  studyNoYaku: "None of the yaku judged here (riichi, all simples, value honours, flushes, all triplets, seven pairs) is in reach after any discard.",
  studyValueUnknown: "The hand\u2019s value is not judged in this rule set.",
  yakuBadgeTitle: "{yaku}: still in reach after this discard",
  safetyBadgeTitle: "Against {name}\u2019s riichi: {sign}",
  safety_genbutsu: "genbutsu",
  safety_suji: "suji",
  safety_kabe: "kabe",
  safety_one_chance: "one-chance",
  safety_none: "no sign",
  safetyMeaning_genbutsu: "they cannot win on it",
  safetyMeaning_suji: "every two-sided wait on it would be furiten",
  safetyMeaning_kabe: "no two-sided wait on it is possible: every copy of a tile it needs is in sight",
  safetyMeaning_one_chance: "a two-sided wait on it needs a tile of which one copy is out of sight",
  safetyMeaning_none: "nothing says it is safe",
  studySafetyPlayed: "Against {name}\u2019s riichi the discard played is {sign}: {meaning}.",
  studyPush: "It pushes a hand at {shanten} against the riichi.",
  studyTradeValue: "It keeps {yaku} in reach, which every discard keeping the most acceptance gives up: a trade for value, not a plain loss.",
  studyTradeDefence: "It is safer against the riichi than every discard keeping the most acceptance: a trade for defence, not a plain loss.",
  studyDefenceHand: "Facing a riichi in this hand: genbutsu in {genbutsu} of {facing} discards ({share}).",
  studyDefenceGame: "Facing a riichi in this game: genbutsu in {genbutsu} of {facing} discards ({share})."
};

/* Japanese: every key of ENGLISH (tests/browser/test_translations.py checks), in the words of
   Tenhou's and Mahjong Soul's Japanese screens. ``actions`` has no English twin: in English the
   action line is the engine's own sentence (``frame.action.text``). */
const JAPANESE = {
  deal: "配牌",
  noHands: "この牌譜には局がありません。",
  loading: "読み込み中\u2026",
  loadFailed: "エラー：{message}",
  framesFailed: "第{hand}局のフレームを読み込めませんでした（HTTP {status}）",
  step: "手順 {step} / {last}",
  handsShown: "手牌を表示",
  handsHidden: "手牌を隠す",
  play: "再生",
  pause: "一時停止",
  pageTitle: "{round} 手順{step} \u00b7 {title} の牌譜再生",
  ura: "裏ドラ",
  hiddenTile: "伏せ牌",
  unknownTile: "不明な牌 {code}",
  called: "（鳴かれた牌）",
  riichiTile: "（立直宣言牌）",
  tsumogiri: "（ツモ切り）",
  dealer: "（親）",
  noSeatWind: "自風なし",
  riichi: "立直",
  riichiStick: "{name} 立直：供託1,000点",
  kita: "抜きドラ：{count}枚",
  flowersAside: "花牌：{count}枚",
  closedKan: "暗槓",
  meldFrom: "{meld}（{name}から）",
  resultHeading: "{round}：{what}",
  winners: "{count}人和了",
  win: "和了",
  winsByTsumo: "{name} ツモ和了",
  winsByRon: "{name} ロン和了（{from}から）",
  winsBySelfDraw: "{name} 自摸和了",
  winsOnTile: "{name} 和了（{from}の牌で）",
  points: "{points}点",
  exhaustiveDraw: "流局",
  nagashiMangan: "流し満貫",
  abortiveDraw: "途中流局",
  nobodyTenpai: "全員ノーテン。",
  wallEmpty: "牌山が尽きました：支払いはありません。",
  isTenpai: "{name} 聴牌",
  isNoten: "{name} ノーテン",
  nagashiText: "流し満貫：{names}。",
  player: "プレイヤー",
  change: "収支",
  score: "点数",
  gameEnd: "終局",
  gameOver: "終局：最終順位です。",
  toGameEnd: "最終順位 \u25b6",
  toGameEndTitle: "終局：最終持ち点・順位・ポイント（\u2192）",
  place: "順位",
  finalScore: "最終持ち点",
  finalPoints: "ポイント",
  ordinals: ["1位", "2位", "3位", "4位", "5位", "6位"],
  ordinalOther: "{n}位",
  pointsByRules: "ルールによる最終ポイント：持ち点から返し点を引いて千点単位にし、ウマ・オカを加えたもの。",
  asRecorded: "（牌譜の記載値）",
  recordPointsUnknownRules:
    "* 牌譜に記載されたポイントです（天鳳の終局時の数値など、牌譜自身の値）。この対局のウマと端数処理は独自のもので、牌譜にも記載がないため、ルールエンジンはポイントを計算していません。",
  recordPointsNotVerified:
    "* 牌譜に記載されたポイントです（天鳳の終局時の数値など、牌譜自身の値）。ルールエンジンはこの対局を最後まで検証していないため、ポイントを計算していません。",
  noPointsUnknownRules:
    "最終ポイントはありません：この対局のポイントの数え方をルールエンジンは知らず、牌譜にも記載がありません。",
  noPointsNotVerified:
    "最終ポイントはありません：ルールエンジンはこの対局を最後まで検証しておらず、牌譜にも記載がありません。",
  notComplete: "牌譜は終局前に途切れています：最終順位はありません。",
  noFinalScores: "最終持ち点は不明です：牌譜に記載がなく、ルールエンジンもこの対局を最後まで検証していません。",
  complete: "和了形です。",
  tenpai: "聴牌。",
  ready: "聴牌：あと1枚で和了形。",
  shanten: "{n}向聴（聴牌まであと{n}枚）。",
  noUzjeShanten: "和了形でも聴牌でもありません（\u00dczje には向聴数がありません）。",
  waits: "待ち",
  unseen: "残り{n}枚",
  unseenInAll: "計{n}枚",
  waitsAfterDiscard: "打牌すると待ちを表示します。",
  scoreMismatch: "点数の不一致：",
  illegalAction: "不正な打牌・操作：",
  illegalHere: " \u2014 次の牌譜の操作はルール上できません：{action}。",
  discrepancyHere: " \u2014 最初の食い違いはここです：{what}。",
  results: { win: "和了", exhaustive_draw: "流局", nagashi_mangan: "流し満貫", abortive_draw: "途中流局", unfinished: "未終了" },
  winds: { E: "東", S: "南", W: "西", N: "北" },
  roundWords: "{wind}{number}局",
  roundCode: "{wind}{number}局",
  windLetters: { E: "東", S: "南", W: "西", N: "北" },
  withHonba: "{round} {honba}本場",
  melds: { chi: "チー", pon: "ポン", open_kan: "大明槓", added_kan: "加槓", closed_kan: "暗槓" },
  badgeComplete: "和了形",
  badgeShanten: "{n}向聴",
  // The study aids: 牌効率 (tile acceptance) of each discard, and the decision keys.
  studyHeading: "{shanten}になる打牌（有効牌の多い順）：受け入れる牌（×見えていない枚数）と合計",
  studyRaising: "ほかの{n}種の打牌は{shanten}に戻ります",
  studyTenpai: "聴牌",
  studyPlayed: "実際の打牌",
  studyKept: "実際の打牌は受け入れ最大を保ちました。",
  studyLost: "実際の打牌は受け入れが{n}枚少なくなります（最善は{best}枚）。",
  studyRaised: "実際の打牌は向聴数が戻ります：{made}（最善の打牌なら{best}）。",
  studyNone: "\u00dczje には牌効率を表示しません（向聴数を数えないため）。",
  studyNoDecision: "この席はここで打牌を選んでいません。「,」「.」で打牌選択の場面へ移動します。",
  studyHand: "この局：受け入れ最大を保った打牌 {kept} / {decisions}（{share}）。",
  studyGame: "この対局：{kept} / {decisions}（{share}）。",
  studyGameSoFar: "この対局（{total}局中{hands}局を集計）：{kept} / {decisions}（{share}）。",
  studyPrevious: "\u25c0 打牌選択",
  studyNext: "打牌選択 \u25b6",
  studyPreviousMissed: "\u25c0 受入減",
  studyNextMissed: "受入減 \u25b6",
  studyPreviousTitle: "この席の前の打牌選択（,）",
  studyNextTitle: "この席の次の打牌選択（.）",
  studyPreviousMissedTitle: "受け入れ最大を保たなかった前の打牌（<）",
  studyNextMissedTitle: "受け入れ最大を保たなかった次の打牌（>）",
  studyMeasures:
    "受け入れ枚数が測るのは速さ（聴牌に近づくツモの多さ）だけで、打点や打牌の危険度は含みません。各打牌に、残る役と、リーチに対する安全度を併記します。",
  listSeparator: "、",
  studyCommonYaku: "どの打牌でも残る役：{yaku}。",
  studyNoCommonYaku: "すべての打牌に共通して残る役はありません（打牌ごとの役は各行に表示）。",
  studyNoYaku: "ここで判定する役（立直・断幺九・役牌・混一色・清一色・対々和・七対子）は、どの打牌でも残りません。",
  studyValueUnknown: "このルールでは手の打点を判定しません。",
  yakuBadgeTitle: "{yaku}：この打牌の後も狙える役",
  safetyBadgeTitle: "{name}のリーチに対して：{sign}",
  safety_genbutsu: "現物",
  safety_suji: "スジ",
  safety_kabe: "壁",
  safety_one_chance: "ワンチャンス",
  safety_none: "根拠なし",
  safetyMeaning_genbutsu: "その人はこの牌でロンできません",
  safetyMeaning_suji: "この牌で和了る両面待ちはすべてフリテンです",
  safetyMeaning_kabe: "この牌の両面待ちはありえません（必要な牌がすべて見えています）",
  safetyMeaning_one_chance: "この牌の両面待ちに必要な牌は、見えていないものが1枚だけです",
  safetyMeaning_none: "安全といえる根拠はありません",
  studySafetyPlayed: "{name}のリーチに対して、実際の打牌は{sign}：{meaning}。",
  studyPush: "{shanten}の手でリーチに押しています。",
  studyTradeValue: "受け入れ最大の打牌がすべて失う{yaku}を残しています：ただのロスではなく打点との交換です。",
  studyTradeDefence: "受け入れ最大のどの打牌よりもリーチに対して安全です：ただのロスではなく守備との交換です。",
  studyDefenceHand: "この局の他家リーチ中：現物 {genbutsu} / {facing} 打（{share}）。",
  studyDefenceGame: "この対局の他家リーチ中：現物 {genbutsu} / {facing} 打（{share}）。",
  actions: {
    draw: "{name} ツモ {tile}",
    replacement: "{name} 嶺上ツモ {tile}",
    discard: "{name} 打 {tile}",
    tsumogiri: "（ツモ切り）",
    riichiDiscard: "（立直宣言牌）",
    chi: "{name} チー {tile}（{from}から）",
    chow: "{name} チー {tile}（{from}から）",
    pon: "{name} ポン {tile}（{from}から）",
    open_kan: "{name} 大明槓 {tile}（{from}から）",
    closed_kan: "{name} 暗槓 {tile}",
    added_kan: "{name} 加槓 {tile}",
    north: "{name} 抜きドラ",
    riichi: "{name} 立直",
    riichi_accepted: "{name} の立直が成立",
    dora: "新ドラ表示牌 {tile}",
    flower: "{name} 花牌 {tile} を抜く",
    bonus: "新ボーナス牌 {tile}",
    swap: "{name} {tile}とドラ表示牌{indicator}を交換",
    tsumo: "{name} ツモ和了 {tile}",
    ron: "{name} ロン和了 {tile}（{from}から）",
    exhaustive_draw: "流局（聴牌：{names}）",
    exhaustive_draw_noten: "流局（全員ノーテン）",
    exhaustive_draw_plain: "流局",
    nagashi_mangan: "流し満貫：{names}",
    abortive_draw: "途中流局：{kind}",
    score_change: "点数移動：{changes}",
    aborts: { nine_terminals: "九種九牌", four_winds: "四風連打", four_riichi: "四家立直", four_kans: "四槓散了", triple_ron: "三家和" }
  }
};

const LANGUAGES = { en: ENGLISH, ja: JAPANESE };
let code = "en";
let table = ENGLISH;
let yakuNames = {};

/** Choose the language of the strings: the page's ``<html lang>`` ("ja", "ja-JP", "en"...);
    English for any other. ``names.yaku`` gives the yaku by engine name in that language (the
    page's ``yaku_names``, from the engine's yaku table). */
export function setLanguage(language, names) {
  const primary = String(language || "en").toLowerCase().split("-")[0];
  code = Object.prototype.hasOwnProperty.call(LANGUAGES, primary) ? primary : "en";
  table = LANGUAGES[code];
  yakuNames = (names && names.yaku) || {};
}

/** The language of the strings ("en" or "ja"). */
export function language() {
  return code;
}

/** The keys of ENGLISH (and of its tables: ``winds.E``) that ``language`` lacks. */
export function missingKeys(language) {
  const other = LANGUAGES[language] || {};
  const missing = [];
  Object.keys(ENGLISH).forEach((key) => {
    if (!Object.prototype.hasOwnProperty.call(other, key)) {
      missing.push(key);
    } else if (typeof ENGLISH[key] === "object") {
      Object.keys(ENGLISH[key]).forEach((inner) => {
        if (typeof other[key] !== "object" || !Object.prototype.hasOwnProperty.call(other[key], inner)) {
          missing.push(key + "." + inner);
        }
      });
    }
  });
  return missing;
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

/** "E1" -> "East 1" (東1局). */
export function roundWords(name) {
  const wind = t("winds")[String(name).charAt(0)];
  return wind ? t("roundWords", { wind: wind, number: String(name).slice(1) }) : String(name);
}

/** A hand with its counters: "East 1-2" (東1局 2本場); ``short``: "E1-2" (the hand selector). */
export function handTitle(name, honba, short) {
  let round = roundWords(name);
  if (short) {
    const letter = t("windLetters")[String(name).charAt(0)];
    round = letter ? t("roundCode", { wind: letter, number: String(name).slice(1) }) : String(name);
  }
  return honba ? t("withHonba", { round: round, honba: honba }) : round;
}

/** A yaku by engine name: its name in the page's language when the page gave one (立直),
    else the name in words ("Riichi", "Seat wind south"). */
export function yakuName(name) {
  return Object.prototype.hasOwnProperty.call(yakuNames, name) ? yakuNames[name] : words(name);
}

/** A place in the final standings: "1st" (1位). */
export function placeWords(place) {
  const known = t("ordinals")[place - 1];
  return known || t("ordinalOther", { n: place });
}

/** An abortive draw's kind in words: the engine's ``text`` in English, 九種九牌 in Japanese. */
export function abortWords(kind, text) {
  const own = table.actions && table.actions.aborts;
  if (own && own[kind]) {
    return own[kind];
  }
  return text || words(kind || "abortive draw");
}

/** A meld's kind in words ("Pon", ポン); an Ùzje shape in its own words. */
export function meldWords(name) {
  const known = t("melds")[name];
  return known || words(name);
}

/**
 * The action line: in English the engine's sentence (``action.text``); in a language with
 * ``actions`` words, the action in them from its fields (docs/replay.md "Frames"), tiles named
 * by ``notation``, players by ``names(seat)``; the engine's sentence for an action it has no
 * words for.
 */
export function actionText(action, names, notation) {
  const own = table.actions;
  if (!action || !own) {
    return action ? action.text : "";
  }
  const tile = (code) => (code ? notation.label(code) || String(code) : "");
  const name = (seat) => (seat === null || seat === undefined ? "" : names(seat));
  const fill = (key, values) =>
    own[key].replace(/\{(\w+)\}/g, (whole, field) =>
      Object.prototype.hasOwnProperty.call(values, field) ? String(values[field]) : whole
    );
  const values = {
    name: name(action.seat),
    tile: tile(action.tile),
    from: name(action.from),
    indicator: tile(action.indicator)
  };
  const type = action.type;
  if (type === "draw") {
    return fill(action.replacement ? "replacement" : "draw", values);
  }
  if (type === "discard") {
    return fill("discard", values) + (action.tsumogiri ? own.tsumogiri : "") + (action.riichi ? own.riichiDiscard : "");
  }
  if (type === "win") {
    return fill(action.tsumo ? "tsumo" : "ron", values);
  }
  if (type === "exhaustive_draw") {
    if (!Array.isArray(action.tenpai)) {
      return fill("exhaustive_draw_plain", {}); // Ùzje: nobody is "tenpai"
    }
    const tenpai = action.tenpai.map(name);
    return tenpai.length ? fill("exhaustive_draw", { names: tenpai.join("、") }) : fill("exhaustive_draw_noten", {});
  }
  if (type === "nagashi_mangan") {
    return fill("nagashi_mangan", { names: (action.seats || []).map(name).join("、") });
  }
  if (type === "abortive_draw") {
    return fill("abortive_draw", { kind: own.aborts[action.kind] || action.text });
  }
  if (type === "score_change") {
    const changes = (action.deltas || [])
      .map((delta, seat) => (delta ? name(seat) + " " + (delta > 0 ? "+" : "") + delta : ""))
      .filter(Boolean);
    return fill("score_change", { changes: changes.join("、") });
  }
  if (Object.prototype.hasOwnProperty.call(own, type) && typeof own[type] === "string") {
    return fill(type, values);
  }
  return action.text;
}
