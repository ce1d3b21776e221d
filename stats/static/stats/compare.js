/* The compare page's name completion: as a player's name is typed, its <datalist> is filled
   with the players the API finds (GET /api/players/?search=&page_size=), the most games
   first, each shown with its platform (the same name on two platforms is two players) and
   bots marked. An option's value is what the form resolves to that one player: the name, or
   name@platform when the name is on two platforms. Without this script the form takes a name
   as typed, and the second field's list holds the first player's opponents.

   When a list is filled, its input gets data-suggested="<count>" until the next keystroke (the
   browser tests wait for it).

   The words are in English, or in Japanese when the page is (<html lang="ja">): WORDS below (the
   API names platforms in English; the page's language names them here). */

const WORDS = {
  en: { bot: " (bot)", platforms: {} },
  ja: {
    bot: "（ボット）",
    platforms: { tenhou: "天鳳", majsoul: "雀魂", sim: "セルフ対戦（ボット）", canonical: "正規形式の牌譜" },
  },
};
const LANGUAGE = (document.documentElement.lang || "en").toLowerCase().split("-")[0];
const words = WORDS[LANGUAGE] || WORDS.en;

const SHOWN = 15;
const DELAY_MS = 150;

const form = document.querySelector("form[data-players-url]");

function namePart(text) {
  // "Aさん@tenhou" searches for "Aさん": the platform narrows the choice, not the search.
  const at = text.lastIndexOf("@");
  return at > 0 ? text.slice(0, at) : text;
}

function optionsFor(players, complete) {
  // A name held by two players in the answer (or possibly by one past its end) is given
  // with its platform; a name that reads as an id or holds "@" too.
  const seen = new Map();
  for (const player of players) {
    seen.set(player.name, (seen.get(player.name) || 0) + 1);
  }
  return players.map(function (player) {
    const plain =
      complete && seen.get(player.name) === 1 && !/^[+-]?\d+$/.test(player.name) && !player.name.includes("@");
    const value = plain || !player.platform ? player.name : player.name + "@" + player.platform;
    let label = player.name;
    const platform = words.platforms[player.platform] || player.platform_label;
    if (platform) {
      label += " · " + platform;
    }
    if (player.kind === "bot") {
      label += words.bot;
    }
    const option = document.createElement("option");
    option.value = value;
    option.textContent = label;
    option.dataset.playerId = String(player.id);
    return option;
  });
}

function complete(input, list, url) {
  let timer = null;
  let pending = null;
  const initial = Array.from(list.children); // the opponents the page listed

  async function fill(text) {
    if (pending) {
      pending.abort();
    }
    pending = new AbortController();
    const query = new URLSearchParams({ search: namePart(text), page_size: String(SHOWN) });
    let body;
    try {
      const response = await fetch(url + "?" + query.toString(), {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        signal: pending.signal,
      });
      if (!response.ok) {
        return;
      }
      body = await response.json();
    } catch (error) {
      return; // aborted by a newer keystroke, or offline: the form still takes the name typed
    }
    if (input.value.trim() !== text) {
      return; // typed on since
    }
    list.replaceChildren(...optionsFor(body.results, body.next === null));
    input.dataset.suggested = String(body.results.length);
  }

  input.addEventListener("input", function () {
    const text = input.value.trim();
    window.clearTimeout(timer);
    // A choice picked from the list needs no new search: the list stays as it is.
    if (text && Array.from(list.options).some((option) => option.value === text)) {
      return;
    }
    delete input.dataset.suggested; // until the list is filled for this text
    if (!text) {
      list.replaceChildren(...initial);
      return;
    }
    if (/^[+-]?\d+$/.test(text)) {
      return; // an id
    }
    timer = window.setTimeout(function () {
      fill(text);
    }, DELAY_MS);
  });
}

if (form) {
  for (const input of form.querySelectorAll("input[data-player-input][list]")) {
    const list = document.getElementById(input.getAttribute("list"));
    if (list) {
      complete(input, list, form.dataset.playersUrl);
    }
  }
}
