/* The player statistics page's charts (Chart.js, vendored): placement game by game with the
   rolling average, the rolling rates, the final points (uma and oka) and the score changes
   added up, our R beside the R the records state (Tenhou's), and the rank the records state
   on the player's platform's ladder (when any does). The page gives the data in the JSON script #stats-series
   (stats.views.chart_data); when every chart is drawn, #charts gets data-drawn="N".
   The words are in English, or in Japanese when the page is (<html lang="ja">): WORDS below. */
(function () {
  "use strict";

  const WORDS = {
    en: {
      game: "#{number} · {date}",
      placement: "Placement",
      averagePlacement: "Average placement (last {window})",
      place: "Place",
      win: "Win %",
      dealIn: "Deal-in %",
      riichi: "Riichi %",
      call: "Call %",
      ofHands: "% of hands",
      finalPointsAdded: "Final points (uma, oka), added up",
      scoreAdded: "Score change, added up",
      finalPoints: "Final points",
      score: "Score",
      ratingOurs: "R (ours)",
      ratingRecorded: "R (as the records state)",
      rankRecorded: "{rank} (as the records state)",
      rank: "Rank",
    },
    ja: {
      game: "第{number}戦 · {date}",
      placement: "順位",
      averagePlacement: "平均順位（直近{window}戦）",
      place: "順位",
      win: "和了率 %",
      dealIn: "放銃率 %",
      riichi: "立直率 %",
      call: "副露率 %",
      ofHands: "局数に対する %",
      finalPointsAdded: "最終ポイント（ウマ・オカ込み）の累計",
      scoreAdded: "点数の増減の累計",
      finalPoints: "最終ポイント",
      score: "点数",
      ratingOurs: "R（当サービスの計算）",
      ratingRecorded: "R（牌譜の記録）",
      rankRecorded: "{rank}（牌譜の記録）",
      rank: "段位",
    },
  };
  const language = (document.documentElement.lang || "en").toLowerCase().split("-")[0];
  const words = WORDS[language] || WORDS.en;

  /** The words of ``key`` with ``{name}`` replaced by ``values.name``. */
  function say(key, values) {
    return words[key].replace(/\{(\w+)\}/g, function (whole, name) {
      return values && Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
    });
  }

  const source = document.getElementById("stats-series");
  const box = document.getElementById("charts");
  if (!source || !box || typeof Chart === "undefined") {
    return;
  }
  const data = JSON.parse(source.textContent);
  const labels = data.dates.map(function (date, index) {
    return say("game", { number: index + 1, date: date });
  });
  const colours = {
    ink: "#1d2330",
    accent: "#b3261e",
    win: "#2e7d32",
    dealIn: "#b3261e",
    riichi: "#1565c0",
    call: "#c77700",
  };
  const common = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    interaction: { mode: "index", intersect: false },
    plugins: { legend: { position: "bottom" } },
    // Clicking a game opens its page.
    onClick: function (event, elements) {
      if (elements.length && box.dataset.gameUrl) {
        const id = data.games[elements[0].index];
        window.location.href = box.dataset.gameUrl.replace(/\/0\/$/, "/" + id + "/");
      }
    },
    scales: {
      x: { ticks: { maxTicksLimit: 8, autoSkip: true } },
    },
  };

  function percent(values) {
    return values.map(function (value) {
      return value === null ? null : Math.round(value * 1000) / 10;
    });
  }

  function options(extra) {
    return Object.assign({}, common, extra, {
      scales: Object.assign({}, common.scales, extra.scales || {}),
    });
  }

  const charts = [];

  charts.push(new Chart(document.getElementById("chart-placement"), {
    type: "line",
    data: {
      labels: labels,
      datasets: [
        {
          label: say("placement"),
          data: data.placement,
          showLine: false,
          pointRadius: 3,
          borderColor: colours.ink,
          backgroundColor: colours.ink,
        },
        {
          label: say("averagePlacement", { window: data.window }),
          data: data.rolling.average_placement,
          borderColor: colours.accent,
          backgroundColor: colours.accent,
          pointRadius: 0,
          borderWidth: 2,
          spanGaps: true,
        },
      ],
    },
    options: options({
      scales: {
        y: {
          reverse: true,
          min: 1,
          max: data.players,
          ticks: { stepSize: 1 },
          title: { display: true, text: say("place") },
        },
      },
    }),
  }));

  const rates = [
    [say("win"), "win_rate", colours.win],
    [say("dealIn"), "deal_in_rate", colours.dealIn],
    [say("riichi"), "riichi_rate", colours.riichi],
    [say("call"), "call_rate", colours.call],
  ];
  charts.push(new Chart(document.getElementById("chart-rates"), {
    type: "line",
    data: {
      labels: labels,
      datasets: rates.map(function (rate) {
        return {
          label: rate[0],
          data: percent(data.rolling[rate[1]]),
          borderColor: rate[2],
          backgroundColor: rate[2],
          pointRadius: 0,
          borderWidth: 2,
          spanGaps: true,
        };
      }),
    },
    options: options({
      scales: { y: { min: 0, title: { display: true, text: say("ofHands") } } },
    }),
  }));

  charts.push(new Chart(document.getElementById("chart-points"), {
    type: "line",
    data: {
      labels: labels,
      datasets: [
        {
          label: say("finalPointsAdded"),
          data: data.final_points,
          borderColor: colours.ink,
          backgroundColor: "rgba(29, 35, 48, 0.08)",
          fill: true,
          pointRadius: 0,
          borderWidth: 2,
          spanGaps: true,
          yAxisID: "y",
        },
        {
          label: say("scoreAdded"),
          data: data.points,
          borderColor: colours.riichi,
          backgroundColor: colours.riichi,
          pointRadius: 0,
          borderWidth: 1,
          borderDash: [4, 3],
          yAxisID: "score",
        },
      ],
    },
    options: options({
      scales: {
        y: { title: { display: true, text: say("finalPoints") } },
        score: {
          position: "right",
          grid: { drawOnChartArea: false },
          title: { display: true, text: say("score") },
        },
      },
    }),
  }));

  function any(values) {
    return values.some(function (value) { return value !== null; });
  }

  const ratings = [
    {
      label: say("ratingOurs"),
      data: data.rating,
      borderColor: colours.accent,
      backgroundColor: colours.accent,
      pointRadius: 2,
      borderWidth: 2,
      spanGaps: true,
    },
  ];
  if (any(data.recorded_rating)) {
    ratings.push({
      label: say("ratingRecorded"),
      data: data.recorded_rating,
      borderColor: colours.riichi,
      backgroundColor: colours.riichi,
      pointRadius: 2,
      borderWidth: 2,
      borderDash: [4, 3],
      spanGaps: true,
    });
  }
  charts.push(new Chart(document.getElementById("chart-rating"), {
    type: "line",
    data: { labels: labels, datasets: ratings },
    options: options({ scales: { y: { title: { display: true, text: "R" } } } }),
  }));

  const danCanvas = document.getElementById("chart-dan");
  if (danCanvas && any(data.recorded_rank)) {
    charts.push(new Chart(danCanvas, {
      type: "line",
      data: {
        labels: labels,
        datasets: [
          {
            label: say("rankRecorded", { rank: data.rank_name }),
            data: data.recorded_rank,
            stepped: true,
            borderColor: colours.win,
            backgroundColor: colours.win,
            pointRadius: 2,
            borderWidth: 2,
            spanGaps: true,
          },
        ],
      },
      options: options({
        scales: {
          y: {
            ticks: {
              stepSize: 1,
              callback: function (value) { return data.rank_labels[value] || ""; },
            },
            title: { display: true, text: say("rank") },
          },
        },
      }),
    }));
  } else if (danCanvas) {
    danCanvas.closest("figure").hidden = true;
  }

  box.dataset.drawn = String(charts.length);
})();
