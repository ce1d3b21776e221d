/* The replay viewer: a game's table, one step at a time.

   The page embeds where to start (#viewer-data: the game, its players and hands, the first
   discrepancy, the starting round/step/seat); each hand's frames (the table after each event,
   docs/replay.md "Frames") come from the frames API and are kept once fetched. Everything
   drawn here, tiles included, is plain DOM + CSS (viewer.css); no library, no build step.
   Tiles are MPSZ codes, or Ùzje's UJMJ codes when the frames say "notation": "uzje"
   (engine/variants/uzje/frames.py); Ùzje tables have 3 to 6 seats.

   The address always carries the moment (?round=R&step=N&seat=S[&hands=hidden]): each move
   pushes a history entry (autoplay replaces it), so a link opens that moment and the browser's
   back and forward buttons walk the moves. */
(function () {
  "use strict";

  var root = document.getElementById("viewer");
  var dataNode = document.getElementById("viewer-data");
  if (!root || !dataNode || !window.fetch) {
    return;
  }
  var data = JSON.parse(dataNode.textContent);
  var players = data.players;
  var count = data.players_count || players.length;
  var rounds = data.rounds || [];

  var WIND_LETTERS = ["E", "S", "W", "N"];
  var WIND_WORDS = { E: "East", S: "South", W: "West", N: "North" };
  // Where each seat sits, in turn order from the viewed seat (Ùzje tables have 3 to 6 seats).
  var POSITIONS = {
    3: ["bottom", "right", "left"],
    5: ["bottom", "right", "top-right", "top-left", "left"],
    6: ["bottom", "right", "top-right", "top", "top-left", "left"]
  }[count] || ["bottom", "right", "top", "left"];
  var POSITION_WORDS = {
    bottom: "",
    right: "right",
    "top-right": "across, right",
    top: "across",
    "top-left": "across, left",
    left: "left"
  };
  var HONOURS = {
    1: ["E", "East wind"],
    2: ["S", "South wind"],
    3: ["W", "West wind"],
    4: ["N", "North wind"],
    5: ["", "White dragon"],
    6: ["G", "Green dragon"],
    7: ["R", "Red dragon"]
  };
  var SUIT_WORDS = { m: "man", p: "pin", s: "sou" };
  /* Ùzje mahjong writes its tiles in UJMJ notation (docs/variants/uzje.md): a rank 1-9, x (10)
     or a-f (11-16) and a suit, t (tongs), s (socks) or m (mans); Z the zero; winds E S W N, or
     H (East and West) and V (South and North); arrows C F P; flowers h i j k (the seasons) and
     o p q r (one to four). "5s" and "5m" mean other tiles than in MPSZ, so the frames say which
     notation they use ("notation": "uzje"). */
  var UZJE_RANKS = "0123456789xabcdef";
  var UZJE_SUITS = { t: "tongs", s: "socks", m: "mans" };
  var UZJE_HONOURS = {
    Z: ["0", "Zero"],
    E: ["E", "East wind"],
    S: ["S", "South wind"],
    W: ["W", "West wind"],
    N: ["N", "North wind"],
    H: ["H", "Horizontal wind (East and West)", "E\u00b7W"],
    V: ["V", "Vertical wind (South and North)", "S\u00b7N"],
    C: ["", "Red arrow"],
    F: ["", "Green arrow"],
    P: ["", "White arrow"]
  };
  // Each flower's name, and the seat (1-4: East to North) whose flower it is.
  var UZJE_FLOWERS = {
    h: ["Spring", 1],
    i: ["Summer", 2],
    j: ["Autumn", 3],
    k: ["Winter", 4],
    o: ["One", 1],
    p: ["Two", 2],
    q: ["Three", 3],
    r: ["Four", 4]
  };
  var RESULT_WORDS = {
    win: "win",
    exhaustive_draw: "draw",
    nagashi_mangan: "nagashi mangan",
    abortive_draw: "abortive draw",
    unfinished: "unfinished"
  };
  var MINUS = "\u2212";
  var BASE_DELAY = 900;

  var state = {
    round: null,
    step: 0,
    seat: data.start.seat || 0,
    hands: data.start.hands !== "hidden",
    current: null, // the round's frames response
    resultHidden: null // "round:step" whose result panel the user closed
  };
  var cache = {};
  var navToken = 0;
  var timer = null;

  var table = document.getElementById("table");
  var center = document.getElementById("center");
  var stepNode = document.getElementById("step");
  var actionNode = document.getElementById("action");
  var roundSelect = document.getElementById("round-select");
  var seatSelect = document.getElementById("seat-select");
  var scrub = document.getElementById("scrub");
  var handsButton = document.getElementById("hands-toggle");
  var playButton = document.getElementById("autoplay");
  var speedSelect = document.getElementById("speed");
  var resultPanel = document.getElementById("result");
  var analysis = document.getElementById("analysis");
  var banner = document.getElementById("discrepancy");
  var help = document.getElementById("help");
  var loadError = document.getElementById("load-error");
  var seatNodes = [];
  // The tile notation of the game's frames: "mpsz" (riichi and its variants) or "uzje".
  var notation = "mpsz";

  // --- Small helpers ------------------------------------------------------------------------

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) {
      node.className = className;
    }
    if (text !== undefined && text !== null) {
      node.textContent = text;
    }
    return node;
  }

  function clear(node) {
    while (node.firstChild) {
      node.removeChild(node.firstChild);
    }
  }

  function points(value) {
    return Math.abs(value).toLocaleString("en-US");
  }

  function scoreText(value) {
    return (value < 0 ? MINUS : "") + points(value);
  }

  function signed(value) {
    if (value > 0) {
      return "+" + points(value);
    }
    if (value < 0) {
      return MINUS + points(value);
    }
    return "0";
  }

  function words(name) {
    var text = String(name).replace(/_/g, " ");
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  function roundWords(name) {
    var wind = WIND_WORDS[String(name).charAt(0)];
    return wind ? wind + " " + String(name).slice(1) : String(name);
  }

  function playerName(seat) {
    return players[seat] !== undefined ? players[seat] : "seat " + (seat + 1);
  }

  function seatWind(seat, dealer) {
    return WIND_LETTERS[(seat - dealer + count) % count];
  }

  function clamp(value, low, high) {
    return Math.max(low, Math.min(high, value));
  }

  function uzje() {
    return notation === "uzje";
  }

  function notationOf(body) {
    var first = body && body.frames && body.frames[0];
    return (body && body.notation) || (first && first.notation) || "mpsz";
  }

  /* Ùzje fan are counted in tenths (36 is 3.6 f); limit hands count limits ("2l"). */
  function fanText(tenths) {
    return String(Math.round(tenths) / 10) + " f";
  }

  function limitText(limits) {
    var number = parseInt(String(limits), 10);
    return number + (number === 1 ? " limit" : " limits");
  }

  // --- Tiles --------------------------------------------------------------------------------

  function tileLabel(code) {
    var rank = code.charAt(0);
    var suit = code.charAt(1);
    if (suit === "z") {
      return (HONOURS[rank] || ["?", code])[1];
    }
    if (rank === "0") {
      return "red 5 " + SUIT_WORDS[suit];
    }
    return rank + " " + (SUIT_WORDS[suit] || suit);
  }

  /* An MPSZ tile's face: the rank and a suit mark, a letter for winds and the green and red
     dragons, an empty frame for the white dragon. Returns the tile in words. */
  function mpszFace(code, node, face) {
    var rank = code.charAt(0);
    var suit = code.charAt(1);
    if (suit === "z") {
      node.className += " t-z t-" + code;
      face.appendChild(element("b", "glyph", (HONOURS[rank] || ["?"])[0]));
    } else {
      node.className += " t-" + suit + (rank === "0" ? " red" : "");
      face.appendChild(element("b", "rank", rank === "0" ? "5" : rank));
      face.appendChild(element("i", "mark"));
    }
    return tileLabel(code);
  }

  /* A UJMJ tile's face: number tiles show their rank 1-16 over the suit's mark (a coin for
     tongs, a sock for socks, the man character for mans); the zero a 0; winds their letter
     (H and V with the two winds they stand for); arrows a coloured arrow; flowers a blossom
     with the number of the seat they belong to (1 East ... 4 North). */
  function uzjeFace(code, node, face) {
    var suit = code.charAt(1);
    if (code.length === 2 && UZJE_SUITS[suit]) {
      var rank = UZJE_RANKS.indexOf(code.charAt(0));
      node.className += " u-num u-" + suit + (rank > 9 ? " two-digit" : "");
      face.appendChild(element("b", "rank", String(rank)));
      face.appendChild(element("i", "mark"));
      return rank + " " + UZJE_SUITS[suit];
    }
    var flower = UZJE_FLOWERS[code];
    if (flower) {
      node.className += " u-flower " + ("hijk".indexOf(code) >= 0 ? "u-season" : "u-numbered");
      face.appendChild(element("i", "mark"));
      face.appendChild(element("b", "flower-seat", String(flower[1])));
      return flower[0] + " flower (" + WIND_WORDS[WIND_LETTERS[flower[1] - 1]] + ")";
    }
    var honour = UZJE_HONOURS[code];
    if (!honour) {
      face.appendChild(element("b", "glyph", "?"));
      return "unknown tile " + code;
    }
    node.className += " u-honour uh-" + code;
    if (honour[0]) {
      face.appendChild(element("b", "glyph", honour[0]));
    } else {
      face.appendChild(element("i", "mark"));
    }
    if (honour[2]) {
      face.appendChild(element("small", "winds", honour[2]));
    }
    return honour[1];
  }

  /* One tile, drawn by viewer.css in the game's notation; ``null`` is a tile back. Extra
     classes: ``side`` (turned sideways), ``called``, ``drawn``, ... */
  function tile(code, extra) {
    var node = element("span", "tile");
    var face = element("span", "face");
    node.appendChild(face);
    node.setAttribute("role", "img");
    if (!code) {
      node.className += " back";
      node.setAttribute("aria-label", "hidden tile");
      node.title = "hidden tile";
    } else {
      node.setAttribute("data-tile", code);
      var label = uzje() ? uzjeFace(code, node, face) : mpszFace(code, node, face);
      node.setAttribute("aria-label", label);
      node.title = label;
    }
    if (extra) {
      node.className += " " + extra;
    }
    return node;
  }

  function tiles(codes, extra) {
    var group = document.createDocumentFragment();
    codes.forEach(function (code) {
      group.appendChild(tile(code, extra));
    });
    return group;
  }

  /* A called meld as on a real table: the called tile turned sideways at the side of the
     player it came from (left: the player before, middle: across, right: the player after),
     the added tile of an added kan turned on top of it, a closed kan with its ends face down. */
  function meld(group, owner) {
    var node = element("span", "meld meld-" + group.type);
    var codes = group.tiles.slice();
    node.setAttribute("data-type", group.type);
    if (group.type === "closed_kan") {
      codes.forEach(function (code, index) {
        node.appendChild(tile(index === 0 || index === codes.length - 1 ? null : code));
      });
      node.title = "Closed kan";
      return node;
    }
    var from = group.from;
    var called = group.called;
    var index = called ? codes.indexOf(called) : -1;
    if (index < 0 || from === null || from === undefined) {
      node.appendChild(tiles(codes));
      node.title = words(group.shape || group.type);
      return node;
    }
    if (uzje()) {
      return uprightMeld(node, group, owner, codes, index);
    }
    codes.splice(index, 1);
    var calledNode = tile(called, "side called-tile");
    if (group.type === "added_kan") {
      var stack = element("span", "stack");
      stack.appendChild(tile(codes.pop(), "side added-tile"));
      stack.appendChild(calledNode);
      calledNode = stack;
    }
    var relative = (from - owner + count) % count;
    var where = relative === count - 1 ? 0 : relative === 1 ? codes.length : 1;
    var arrow = relative === count - 1 ? "\u2190" : relative === 1 ? "\u2192" : "\u2191";
    codes.forEach(function (code, position) {
      if (position === where) {
        node.appendChild(calledNode);
      }
      node.appendChild(tile(code));
    });
    if (where >= codes.length) {
      node.appendChild(calledNode);
    }
    node.setAttribute("data-from", String(from));
    node.title = words(group.type) + " from " + playerName(from);
    var source = element("span", "meld-from", arrow + " " + playerName(from));
    node.appendChild(source);
    return node;
  }

  function fromArrow(from, owner) {
    var relative = (from - owner + count) % count;
    return relative === count - 1 ? "\u2190" : relative === 1 ? "\u2192" : "\u2191";
  }

  /* An Ùzje meld: every tile upright, as the rules lay it ("all tiles are upright relative to
     the player, and never put sideways", seeds/002); the claimed tile is outlined and the
     label says whom it came from. */
  function uprightMeld(node, group, owner, codes, index) {
    codes.forEach(function (code, position) {
      node.appendChild(tile(code, position === index ? "called-tile upright" : ""));
    });
    node.setAttribute("data-from", String(group.from));
    node.title = words(group.shape || group.type) + " from " + playerName(group.from);
    node.appendChild(element("span", "meld-from", fromArrow(group.from, owner) + " " + playerName(group.from)));
    return node;
  }

  // --- The table ----------------------------------------------------------------------------

  function buildSeats() {
    for (var seat = 0; seat < count; seat += 1) {
      var section = element("section", "seat");
      section.setAttribute("data-seat", String(seat));
      var head = element("header", "seat-head");
      var wind = element("span", "wind");
      var name = element("span", "name", playerName(seat));
      var where = element("span", "where");
      var score = element("span", "score");
      score.setAttribute("data-part", "score");
      var delta = element("span", "delta");
      delta.setAttribute("data-part", "delta");
      var riichi = element("span", "riichi-mark", "Riichi");
      var north = element("span", "north-count");
      var shanten = element("span", "shanten-badge");
      [wind, name, where, score, delta, riichi, north, shanten].forEach(function (node) {
        head.appendChild(node);
      });
      var row = element("div", "hand-row");
      var hand = element("div", "hand");
      hand.setAttribute("data-part", "hand");
      var melds = element("div", "melds");
      melds.setAttribute("data-part", "melds");
      row.appendChild(hand);
      row.appendChild(melds);
      var river = element("div", "river");
      river.setAttribute("data-part", "river");
      section.appendChild(head);
      section.appendChild(row);
      section.appendChild(river);
      table.insertBefore(section, center);
      seatNodes.push({
        section: section,
        wind: wind,
        where: where,
        score: score,
        delta: delta,
        riichi: riichi,
        north: north,
        shanten: shanten,
        hand: hand,
        melds: melds,
        river: river
      });
    }
  }

  function shantenWords(value) {
    if (value === null || value === undefined) {
      return "";
    }
    if (value < 0) {
      return "Complete";
    }
    if (value === 0) {
      return uzje() ? "Ready" : "Tenpai";
    }
    return value + "-shanten";
  }

  function renderSeat(frame, previous, seat) {
    var view = frame.seats[seat];
    var nodes = seatNodes[seat];
    var relative = (seat - state.seat + count) % count;
    var position = POSITIONS[relative];
    var open = state.hands || seat === state.seat;
    nodes.section.setAttribute("data-pos", position);
    nodes.section.classList.toggle("viewed", seat === state.seat);
    nodes.section.classList.toggle("active", frame.turn === seat && frame.step > 0);
    nodes.section.classList.toggle("dealer", frame.dealer === seat);
    nodes.section.classList.toggle("in-riichi", !!view.riichi);
    // Ùzje frames name each seat's wind (none for a fifth or sixth seat).
    var wind = view.wind !== undefined ? view.wind : seatWind(seat, frame.dealer);
    nodes.wind.textContent = wind || "\u00b7";
    nodes.wind.title = (wind ? WIND_WORDS[wind] : "No seat wind") + (frame.dealer === seat ? " (dealer)" : "");
    nodes.where.textContent = POSITION_WORDS[position] ? "(" + POSITION_WORDS[position] + ")" : "";
    nodes.score.textContent = scoreText(view.score);
    nodes.delta.textContent = view.delta ? signed(view.delta) : "";
    nodes.delta.className = "delta" + (view.delta > 0 ? " plus" : view.delta < 0 ? " minus" : "");
    nodes.riichi.hidden = !view.riichi;
    nodes.north.textContent = view.north ? "North \u00d7" + view.north : "";
    nodes.shanten.textContent = open ? shantenWords(view.shanten) : "";

    clear(nodes.hand);
    view.hand.forEach(function (code) {
      nodes.hand.appendChild(tile(open ? code : null));
    });
    if (view.drawn) {
      nodes.hand.appendChild(tile(open ? view.drawn : null, "drawn"));
    }

    clear(nodes.melds);
    if (view.north) {
      var kita = element("span", "kita");
      kita.title = "North tiles set aside (kita): " + view.north;
      for (var index = 0; index < view.north; index += 1) {
        kita.appendChild(tile("4z", "north-tile"));
      }
      nodes.melds.appendChild(kita);
    }
    if (view.flowers && view.flowers.length) {
      var flowers = element("span", "flowers");
      flowers.setAttribute("data-part", "flowers");
      flowers.title = "Flowers set aside: " + view.flowers.length;
      view.flowers.forEach(function (code) {
        flowers.appendChild(tile(code, "flower-tile"));
      });
      nodes.melds.appendChild(flowers);
    }
    view.melds.forEach(function (group) {
      nodes.melds.appendChild(meld(group, seat));
    });

    clear(nodes.river);
    // The tile just discarded (the frame's action) is outlined.
    var action = frame.action;
    var grew =
      !!action &&
      action.seat === seat &&
      !!previous &&
      previous.seats[seat].discards.length < view.discards.length;
    var row = null;
    view.discards.forEach(function (discard, index) {
      if (index % 6 === 0) {
        row = element("div", "river-row");
        nodes.river.appendChild(row);
      }
      var classes = [];
      if (discard.riichi) {
        classes.push("side", "riichi-tile");
      }
      if (discard.called) {
        classes.push("called");
      }
      if (discard.tsumogiri) {
        classes.push("tsumogiri");
      }
      if (grew && index === view.discards.length - 1) {
        classes.push("last");
      }
      var node = tile(discard.tile, classes.join(" "));
      if (discard.called) {
        node.title += " (called)";
      }
      if (discard.riichi) {
        node.title += " (riichi)";
      }
      if (discard.tsumogiri) {
        node.title += " (drawn and discarded)";
      }
      row.appendChild(node);
    });
  }

  function renderCenter(frame) {
    document.getElementById("round-name").textContent = roundWords(frame.round_name);
    document.getElementById("honba").textContent = String(frame.honba);
    // Ùzje: no riichi sticks, and the games the dealer has dealt in a row are "repeats".
    var honbaWord = document.getElementById("honba-word");
    if (honbaWord) {
      honbaWord.textContent = uzje() ? (frame.honba === 1 ? "repeat" : "repeats") : "honba";
    }
    document.getElementById("sticks-line").hidden = uzje();
    document.getElementById("sticks").textContent = String(frame.riichi_sticks);
    center.querySelector(".plural").hidden = frame.riichi_sticks === 1;
    document.getElementById("wall").textContent = String(frame.wall_left);
    center.querySelector(".dora-line .label").textContent = uzje() ? "Bonus" : "Dora";
    var dora = center.querySelector('[data-part="dora"]');
    clear(dora);
    dora.appendChild(tiles(frame.dora_indicators || []));
    // With the option bonus_is_next the shown tiles make other tiles count: show those too.
    var counted = frame.bonus_tiles || [];
    var bonusLine = center.querySelector(".bonus-line");
    if (bonusLine) {
      var differs = counted.join(" ") !== (frame.dora_indicators || []).join(" ");
      bonusLine.hidden = !differs;
      var bonus = bonusLine.querySelector('[data-part="bonus"]');
      clear(bonus);
      if (differs) {
        bonus.appendChild(tiles(counted));
      }
    }
    var ura = center.querySelector('[data-part="ura"]');
    clear(ura);
    var uraTiles = frame.ura_indicators || [];
    ura.appendChild(tiles(uraTiles));
    center.querySelector(".ura-line").hidden = uraTiles.length === 0;
    document.getElementById("turn").textContent = playerName(frame.turn);
  }

  function renderAnalysis(frame) {
    var view = frame.seats[state.seat];
    analysis.querySelector(".seat-name").textContent = playerName(state.seat);
    var line = analysis.querySelector(".shanten");
    var shanten = view.shanten;
    var text;
    if (uzje() && (shanten === null || shanten === undefined)) {
      // The engine has no exact shanten for Ùzje: only complete and ready hands are shown.
      text = "Neither complete nor ready (no shanten count for Ùzje).";
    } else if (shanten === null || shanten === undefined) {
      text = "";
    } else if (shanten < 0) {
      text = "Complete hand.";
    } else if (shanten === 0) {
      text = uzje() ? "Ready: one tile from a winning shape." : "Tenpai.";
    } else {
      text = shanten + "-shanten (" + shanten + " tile" + (shanten === 1 ? "" : "s") + " from tenpai).";
    }
    line.textContent = text;
    line.setAttribute("data-shanten", String(shanten));
    var box = analysis.querySelector(".waits");
    clear(box);
    var waits = view.waits || [];
    if (waits.length) {
      var total = 0;
      box.appendChild(element("span", "label", "Waits"));
      var list = element("ul", "wait-list");
      list.setAttribute("data-part", "waits");
      waits.forEach(function (wait) {
        total += wait.unseen;
        var item = element("li", "wait" + (wait.unseen === 0 ? " dead" : ""));
        item.setAttribute("data-tile", wait.tile);
        item.setAttribute("data-unseen", String(wait.unseen));
        item.appendChild(tile(wait.tile));
        item.appendChild(element("span", "unseen", "\u00d7" + wait.unseen));
        item.title = wait.unseen + " unseen";
        list.appendChild(item);
      });
      box.appendChild(list);
      box.appendChild(element("span", "total", total + " unseen in all"));
    } else if (shanten === 0 && view.drawn) {
      box.appendChild(element("span", "muted", "Waits show after the discard."));
    }
  }

  function handWithTile(container, hand, melds, winning, owner) {
    var row = element("div", "result-hand");
    var concealed = hand.slice();
    if (winning && concealed.length % 3 === 2) {
      var index = concealed.lastIndexOf(winning);
      if (index >= 0) {
        concealed.splice(index, 1);
      }
    }
    var part = element("span", "hand");
    part.setAttribute("data-part", "hand");
    part.appendChild(tiles(concealed));
    if (winning) {
      part.appendChild(tile(winning, "winning"));
    }
    row.appendChild(part);
    if (melds && melds.length) {
      var groups = element("span", "melds");
      melds.forEach(function (group) {
        groups.appendChild(meld(group, owner));
      });
      row.appendChild(groups);
    }
    container.appendChild(row);
  }

  function payments(container, deltas, className) {
    var list = element("ul", className || "payments");
    deltas.forEach(function (delta, seat) {
      if (!delta) {
        return;
      }
      var item = element("li", delta > 0 ? "plus" : "minus");
      item.setAttribute("data-seat", String(seat));
      item.appendChild(element("span", "who", playerName(seat)));
      item.appendChild(document.createTextNode(" "));
      item.appendChild(element("span", "amount", signed(delta)));
      list.appendChild(item);
    });
    if (list.firstChild) {
      container.appendChild(list);
    }
  }

  function renderResult(frame) {
    var result = frame.result;
    var key = state.round + ":" + frame.step;
    if (state.resultHidden !== key) {
      state.resultHidden = null; // closed at another moment: show the next result again
    }
    if (!result || state.resultHidden === key) {
      resultPanel.hidden = true;
      return;
    }
    var body = resultPanel.querySelector(".result-body");
    var heading = document.getElementById("result-heading");
    clear(body);
    resultPanel.setAttribute("data-type", result.type);
    heading.textContent = roundWords(frame.round_name) + (frame.honba ? "-" + frame.honba : "") + ": ";
    if (result.type === "win") {
      heading.textContent += result.wins.length > 1 ? result.wins.length + " winners" : "win";
      result.wins.forEach(function (win) {
        var box = element("article", "win");
        box.setAttribute("data-seat", String(win.seat));
        var tsumo = win.from === null || win.from === undefined || win.from === win.seat;
        var how = uzje()
          ? tsumo ? " wins by self-draw" : " wins on a tile from " + playerName(win.from)
          : tsumo ? " wins by tsumo" : " wins by ron from " + playerName(win.from);
        box.appendChild(element("h3", "winner", playerName(win.seat) + how));
        handWithTile(box, win.hand || [], win.melds || [], win.tile, win.seat);
        // Ùzje patterns are worth fan (in tenths), or limits for a limit hand.
        var yaku = element("ul", "yaku");
        (win.yaku || []).forEach(function (pair) {
          var item = element("li");
          var worth = !uzje() ? pair[1] + " han" : win.limit_patterns ? limitText(pair[1]) : fanText(pair[1]);
          item.appendChild(element("span", "yaku-name", words(pair[0])));
          item.appendChild(element("span", "yaku-han", worth));
          yaku.appendChild(item);
        });
        box.appendChild(yaku);
        var value = [];
        if (uzje()) {
          if (!win.limit_patterns && win.han !== null && win.han !== undefined) {
            value.push(fanText(win.han));
          }
        } else {
          if (win.han !== null && win.han !== undefined) {
            value.push(win.han + " han");
          }
          if (win.fu) {
            value.push(win.fu + " fu");
          }
        }
        var line = element("p", "value", value.join(" "));
        if (win.limit) {
          line.appendChild(element("span", "limit", " " + (uzje() ? limitText(win.limit) : words(win.limit))));
        }
        var pts = element("strong", "points", " " + points(win.points || 0) + " points");
        pts.setAttribute("data-points", String(win.points));
        line.appendChild(pts);
        box.appendChild(line);
        if (win.deltas) {
          payments(box, win.deltas);
        }
        body.appendChild(box);
      });
    } else if (result.type === "exhaustive_draw") {
      heading.textContent += "exhaustive draw";
      var tenpai = result.tenpai || [];
      if (uzje()) {
        body.appendChild(element("p", "tenpai-none", "The wall is empty: nobody pays."));
      } else if (!tenpai.length) {
        body.appendChild(element("p", "tenpai-none", "Nobody is tenpai."));
      }
      tenpai.forEach(function (entry) {
        var box = element("article", "tenpai");
        box.setAttribute("data-seat", String(entry.seat));
        box.appendChild(element("h3", "", playerName(entry.seat) + " is tenpai"));
        handWithTile(box, entry.hand || [], entry.melds || [], null, entry.seat);
        body.appendChild(box);
      });
    } else if (result.type === "nagashi_mangan") {
      heading.textContent += "nagashi mangan";
      body.appendChild(
        element("p", "nagashi", "Nagashi mangan: " + (result.seats || []).map(playerName).join(", ") + ".")
      );
    } else if (result.type === "abortive_draw") {
      heading.textContent += "abortive draw";
      body.appendChild(element("p", "abort", result.text || words(result.kind || "abortive draw")));
    } else {
      heading.textContent += words(result.type);
    }
    if (result.type === "win") {
      var indicators = element("p", "indicators");
      indicators.appendChild(element("span", "label", uzje() ? "Bonus tiles " : "Dora indicators "));
      indicators.appendChild(tiles(frame.dora_indicators || []));
      if ((frame.ura_indicators || []).length) {
        indicators.appendChild(element("span", "label", " Ura "));
        var ura = element("span", "ura");
        ura.setAttribute("data-part", "ura");
        ura.appendChild(tiles(frame.ura_indicators));
        indicators.appendChild(ura);
      }
      body.appendChild(indicators);
    }
    if (result.scores_after) {
      var scores = element("table", "scores-after");
      var head = element("thead");
      var headRow = element("tr");
      ["Player", "Change", "Score"].forEach(function (label) {
        var cell = element("th", label === "Player" ? "" : "num", label);
        cell.scope = "col";
        headRow.appendChild(cell);
      });
      head.appendChild(headRow);
      scores.appendChild(head);
      var rows = element("tbody");
      result.scores_after.forEach(function (score, seat) {
        var row = element("tr");
        row.setAttribute("data-seat", String(seat));
        row.appendChild(element("td", "", playerName(seat)));
        var delta = (result.deltas || [])[seat] || 0;
        row.appendChild(element("td", "num delta" + (delta > 0 ? " plus" : delta < 0 ? " minus" : ""), signed(delta)));
        row.appendChild(element("td", "num score", scoreText(score)));
        rows.appendChild(row);
      });
      scores.appendChild(rows);
      body.appendChild(scores);
    }
    resultPanel.hidden = false;
  }

  function renderDiscrepancyMark() {
    var found = data.discrepancy;
    var here = !!found && found.round === state.round && resolveStep(found.step) === state.step;
    root.classList.toggle("at-discrepancy", here);
    banner.classList.toggle("here", here);
    actionNode.classList.toggle("discrepancy-here", here);
    if (here) {
      var note = element(
        "span",
        "discrepancy-note",
        found.verdict === "illegal_action"
          ? " \u2014 next, the record has an illegal action: " + found.found + "."
          : " \u2014 the first discrepancy is here: " + found.what + "."
      );
      actionNode.appendChild(note);
    }
  }

  function resolveStep(step) {
    var last = state.current ? state.current.frames.length - 1 : 0;
    if (step === null || step === undefined) {
      return 0;
    }
    return step < 0 ? clamp(last + 1 + step, 0, last) : clamp(step, 0, last);
  }

  function render() {
    notation = notationOf(state.current);
    root.classList.toggle("uzje", uzje());
    var frames = state.current.frames;
    var frame = frames[state.step];
    var previous = state.step > 0 ? frames[state.step - 1] : null;
    var last = frames.length - 1;
    root.setAttribute("data-hands", state.hands ? "shown" : "hidden");
    root.setAttribute("data-round", String(state.round));
    root.setAttribute("data-step", String(state.step));
    root.setAttribute("data-seat", String(state.seat));
    stepNode.textContent = "Step " + state.step + " / " + last;
    stepNode.setAttribute("data-step", String(state.step));
    stepNode.setAttribute("data-last", String(last));
    scrub.max = String(last);
    scrub.value = String(state.step);
    roundSelect.value = String(state.round);
    seatSelect.value = String(state.seat);
    handsButton.textContent = state.hands ? "Hands shown" : "Hands hidden";
    handsButton.setAttribute("aria-pressed", state.hands ? "true" : "false");
    actionNode.textContent = frame.action ? frame.action.text : "The deal.";
    for (var seat = 0; seat < count; seat += 1) {
      renderSeat(frame, previous, seat);
    }
    renderCenter(frame);
    renderAnalysis(frame);
    renderResult(frame);
    renderDiscrepancyMark();
    document.title = roundWords(frame.round_name) + ", step " + state.step + " · Replay of " + data.title;
  }

  // --- Loading and moving -------------------------------------------------------------------

  function turnSteps(round, seat) {
    // The steps where the seat has to choose a discard: after its draw or its chi/pon (an
    // Ùzje chow: a claimed arith).
    round.turns = round.turns || {};
    if (!round.turns[seat]) {
      var steps = [];
      var before = false;
      round.frames.forEach(function (frame, index) {
        var action = frame.action;
        var now =
          !!action &&
          action.seat === seat &&
          (!!frame.seats[seat].drawn || /chi|pon|chow/.test(String(action.type)));
        if (now && !before) {
          steps.push(index);
        }
        before = now;
      });
      round.turns[seat] = steps;
    }
    return round.turns[seat];
  }

  function load(round) {
    if (!cache[round]) {
      cache[round] = fetch(data.frames_url + round + "/frames/", {
        credentials: "same-origin",
        headers: { Accept: "application/json" }
      })
        .then(function (response) {
          if (!response.ok) {
            throw new Error("the frames of hand " + (round + 1) + " could not be loaded (HTTP " + response.status + ")");
          }
          return response.json();
        })
        .then(function (body) {
          refreshRounds(body.rounds);
          var found = body.discrepancy;
          if (found && data.discrepancy && found.round === round && typeof found.step === "number") {
            data.discrepancy.step = found.step;
          }
          return body;
        });
      cache[round].catch(function () {
        delete cache[round];
      });
    }
    return cache[round];
  }

  /* The hand selector's results as the engine replays each hand (the frames API's
     ``rounds``), once known. */
  var roundsRefreshed = false;
  function refreshRounds(engineRounds) {
    if (roundsRefreshed || !engineRounds || engineRounds.length !== rounds.length) {
      return;
    }
    roundsRefreshed = true;
    engineRounds.forEach(function (round, index) {
      rounds[index].result = round.result;
      roundSelect.options[index].textContent = roundLabel(round);
    });
  }

  function roundLabel(round) {
    return round.name + (round.honba ? "-" + round.honba : "") + " \u00b7 " + (RESULT_WORDS[round.result] || round.result);
  }

  function showError(error) {
    loadError.textContent = "Sorry: " + (error && error.message ? error.message : String(error)) + ".";
    loadError.hidden = false;
    root.classList.remove("loading");
  }

  function currentUrl() {
    var params = new URLSearchParams(window.location.search);
    params.set("round", String(state.round));
    params.set("step", String(state.step));
    params.set("seat", String(state.seat));
    if (state.hands) {
      params.delete("hands");
    } else {
      params.set("hands", "hidden");
    }
    return "?" + params.toString();
  }

  function remember(replace) {
    var entry = { round: state.round, step: state.step, seat: state.seat, hands: state.hands };
    var url = currentUrl();
    if (!replace && url === window.location.search) {
      replace = true;
    }
    if (replace) {
      window.history.replaceState(entry, "", url);
    } else {
      window.history.pushState(entry, "", url);
    }
  }

  /* Show the round's step (negative: from its end; "discrepancy": the first discrepancy's
     step). Options: ``replace`` (replace the history entry instead of adding one),
     ``noHistory`` (leave the address alone: a popstate). */
  function go(round, step, options) {
    options = options || {};
    if (!rounds.length) {
      return Promise.resolve();
    }
    round = clamp(round, 0, rounds.length - 1);
    var token = (navToken += 1);
    root.classList.add("loading");
    return load(round).then(
      function (body) {
        if (token !== navToken) {
          return;
        }
        loadError.hidden = true;
        root.classList.remove("loading");
        state.current = body;
        state.round = round;
        if (step === "discrepancy") {
          step = data.discrepancy ? data.discrepancy.step : 0;
        }
        state.step = resolveStep(step);
        render();
        if (!options.noHistory) {
          remember(options.replace);
        }
        if (round + 1 < rounds.length) {
          load(round + 1).catch(function () {});
        }
      },
      function (error) {
        if (token === navToken) {
          showError(error);
        }
      }
    );
  }

  function ready() {
    return state.current !== null;
  }

  function lastStep() {
    return state.current.frames.length - 1;
  }

  function forward(options) {
    if (!ready()) {
      return Promise.resolve();
    }
    if (state.step < lastStep()) {
      return go(state.round, state.step + 1, options);
    }
    if (state.round + 1 < rounds.length) {
      return go(state.round + 1, 0, options);
    }
    return Promise.resolve();
  }

  function back() {
    if (!ready()) {
      return;
    }
    if (state.step > 0) {
      go(state.round, state.step - 1);
    } else if (state.round > 0) {
      go(state.round - 1, -1);
    }
  }

  function nextTurn() {
    if (!ready()) {
      return;
    }
    var steps = turnSteps(state.current, state.seat);
    for (var index = 0; index < steps.length; index += 1) {
      if (steps[index] > state.step) {
        go(state.round, steps[index]);
        return;
      }
    }
    if (state.step < lastStep()) {
      go(state.round, -1);
    } else if (state.round + 1 < rounds.length) {
      go(state.round + 1, 0);
    }
  }

  function previousTurn() {
    if (!ready()) {
      return;
    }
    var steps = turnSteps(state.current, state.seat);
    for (var index = steps.length - 1; index >= 0; index -= 1) {
      if (steps[index] < state.step) {
        go(state.round, steps[index]);
        return;
      }
    }
    if (state.step > 0) {
      go(state.round, 0);
    } else if (state.round > 0) {
      go(state.round - 1, -1);
    }
  }

  function changeRound(by) {
    if (!ready()) {
      return;
    }
    var round = state.round + by;
    if (round >= 0 && round < rounds.length) {
      go(round, 0);
    }
  }

  function setSeat(seat) {
    state.seat = ((seat % count) + count) % count;
    if (ready()) {
      render();
      remember(false);
    }
  }

  function toggleHands() {
    state.hands = !state.hands;
    if (ready()) {
      render();
      remember(true);
    }
  }

  function goDiscrepancy() {
    if (data.discrepancy) {
      go(data.discrepancy.round, "discrepancy");
    }
  }

  // --- Autoplay -----------------------------------------------------------------------------

  function delay() {
    var speed = parseFloat(speedSelect.value) || 1;
    var frame = ready() ? state.current.frames[state.step] : null;
    return (BASE_DELAY / speed) * (frame && frame.result ? 4 : 1);
  }

  function stopPlaying() {
    if (timer !== null) {
      window.clearTimeout(timer);
      timer = null;
    }
    playButton.textContent = "Play";
    playButton.setAttribute("aria-pressed", "false");
    root.classList.remove("playing");
  }

  function tick() {
    timer = null;
    if (!ready() || (state.step >= lastStep() && state.round + 1 >= rounds.length)) {
      stopPlaying();
      remember(false);
      return;
    }
    forward({ replace: true }).then(function () {
      if (playButton.getAttribute("aria-pressed") === "true") {
        timer = window.setTimeout(tick, delay());
      }
    });
  }

  function togglePlay() {
    if (playButton.getAttribute("aria-pressed") === "true") {
      stopPlaying();
      if (ready()) {
        remember(false);
      }
      return;
    }
    playButton.textContent = "Pause";
    playButton.setAttribute("aria-pressed", "true");
    root.classList.add("playing");
    timer = window.setTimeout(tick, delay());
  }

  function changeSpeed(by) {
    speedSelect.selectedIndex = clamp(speedSelect.selectedIndex + by, 0, speedSelect.options.length - 1);
  }

  // --- Controls and keys --------------------------------------------------------------------

  function fillSelects() {
    rounds.forEach(function (round) {
      var option = element("option", "", roundLabel(round));
      option.value = String(round.index);
      roundSelect.appendChild(option);
    });
    players.forEach(function (name, seat) {
      var option = element("option", "", seat + 1 + ". " + name);
      option.value = String(seat);
      seatSelect.appendChild(option);
    });
  }

  var NAVIGATION = {
    "prev-round": function () { changeRound(-1); },
    "next-round": function () { changeRound(1); },
    start: function () { if (ready()) { go(state.round, 0); } },
    end: function () { if (ready()) { go(state.round, -1); } },
    back: back,
    forward: function () { forward(); },
    "prev-turn": previousTurn,
    "next-turn": nextTurn
  };

  function bindControls() {
    Array.prototype.forEach.call(root.querySelectorAll("[data-nav]"), function (button) {
      button.addEventListener("click", NAVIGATION[button.getAttribute("data-nav")]);
    });
    roundSelect.addEventListener("change", function () {
      go(parseInt(roundSelect.value, 10), 0);
      roundSelect.blur();
    });
    seatSelect.addEventListener("change", function () {
      setSeat(parseInt(seatSelect.value, 10));
      seatSelect.blur();
    });
    speedSelect.addEventListener("change", function () {
      speedSelect.blur();
    });
    scrub.addEventListener("input", function () {
      if (ready()) {
        go(state.round, parseInt(scrub.value, 10), { replace: true });
      }
    });
    scrub.addEventListener("change", function () {
      if (ready()) {
        remember(false);
      }
    });
    document.getElementById("rotate").addEventListener("click", function () {
      setSeat(state.seat + 1);
    });
    handsButton.addEventListener("click", toggleHands);
    playButton.addEventListener("click", togglePlay);
    document.getElementById("help-button").addEventListener("click", openHelp);
    resultPanel.querySelector(".close-result").addEventListener("click", hideResult);
    banner.querySelector(".go-discrepancy").addEventListener("click", goDiscrepancy);
    document.addEventListener("keydown", onKey);

    window.addEventListener("popstate", function (event) {
      var entry = event.state || fromAddress();
      state.seat = clamp(entry.seat || 0, 0, count - 1);
      state.hands = entry.hands !== false && entry.hands !== "hidden";
      go(entry.round || 0, entry.step || 0, { noHistory: true });
    });
  }

  function fromAddress() {
    var params = new URLSearchParams(window.location.search);
    return {
      round: parseInt(params.get("round") || "0", 10) || 0,
      step: parseInt(params.get("step") || "0", 10) || 0,
      seat: parseInt(params.get("seat") || "0", 10) || 0,
      hands: params.get("hands") !== "hidden"
    };
  }

  function openHelp() {
    if (help.open) {
      help.close();
    } else if (help.showModal) {
      help.showModal();
    } else {
      help.setAttribute("open", "");
    }
  }

  function hideResult() {
    if (ready() && !resultPanel.hidden) {
      state.resultHidden = state.round + ":" + state.step;
      resultPanel.hidden = true;
      table.focus();
    }
  }

  function onKey(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) {
      return;
    }
    var target = event.target;
    var tag = target && target.tagName;
    var slider = tag === "INPUT" && target.type === "range";
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
    var key = event.key;
    var handled = true;
    if (key === "ArrowRight") {
      forward();
    } else if (key === "ArrowLeft") {
      back();
    } else if (key === "ArrowDown") {
      nextTurn();
    } else if (key === "ArrowUp") {
      previousTurn();
    } else if (key === "Home") {
      NAVIGATION.start();
    } else if (key === "End") {
      NAVIGATION.end();
    } else if (key === "PageUp" || key === "[") {
      changeRound(-1);
    } else if (key === "PageDown" || key === "]") {
      changeRound(1);
    } else if (key === " " || key === "Spacebar") {
      togglePlay();
    } else if (key === "+" || key === "=") {
      changeSpeed(1);
    } else if (key === "-" || key === "_") {
      changeSpeed(-1);
    } else if (key === "h" || key === "H") {
      toggleHands();
    } else if (key === "r") {
      setSeat(state.seat + 1);
    } else if (key === "R") {
      setSeat(state.seat - 1);
    } else if (key === "d" || key === "D") {
      goDiscrepancy();
    } else if (key === "?") {
      openHelp();
    } else if (key === "Escape") {
      hideResult();
      handled = false;
    } else if (/^[1-6]$/.test(key) && parseInt(key, 10) <= count) {
      setSeat(parseInt(key, 10) - 1);
    } else {
      handled = false;
    }
    if (handled) {
      event.preventDefault();
    }
  }

  function showBanner() {
    var found = data.discrepancy;
    if (!found) {
      return;
    }
    var illegal = found.verdict === "illegal_action";
    banner.querySelector(".verdict-label").textContent = illegal ? "Illegal action:" : "Score mismatch:";
    banner.querySelector(".discrepancy-message").textContent = found.message;
    banner.querySelector(".expected-label").textContent = illegal ? "The rules allow" : "The rules give";
    banner.querySelector(".expected").textContent = found.expected;
    banner.querySelector(".found").textContent = found.found;
    banner.classList.add(illegal ? "illegal" : "mismatch");
    banner.hidden = false;
  }

  // --- Start --------------------------------------------------------------------------------

  root.classList.add("js");
  buildSeats();
  fillSelects();
  bindControls();
  showBanner();
  if (!rounds.length) {
    actionNode.textContent = "The record has no hands.";
    return;
  }
  var start = data.start;
  go(start.round, start.at_discrepancy ? "discrepancy" : start.step, { replace: true });
})();
