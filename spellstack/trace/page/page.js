"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const L = D.lines;            // [label, turn, step, active, lanes, mark, kind, text, view, stepSeq, folded]
  const P = D.players;
  const V = D.views;
  const COLORS = ["#2f6fdf", "#d9822b", "#2e9d57", "#8e44ad"];
  const MARKS = [["priority", "priority"], ["pass", "pass (folded run)"], ["cast", "cast, activate, play"],
                 ["resolve", "resolve, counter"], ["sba", "state-based action"], ["trigger", "trigger"],
                 ["combat", "attack, block"], ["damage", "damage, life"], ["decision", "decision"],
                 ["end", "game over"]];
  const viewerSeat = D.viewer === null ? -1 : P.indexOf(D.viewer);
  const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;"}[c]));
  const stepName = (s) => s.replace(/_/g, " ");
  const $ = (id) => document.getElementById(id);

  // The latest view of each seat at each line (-1: none yet).
  const latest = [];
  {
    const last = P.map(() => -1);
    for (const row of L) {
      if (row[8] >= 0) last[V[row[8]].seat] = row[8];
      latest.push(last.slice());
    }
  }

  // -- summary, lanes and rows
  const r = D.result;
  $("summary").innerHTML = P.map((n, i) => `<b style="color:${COLORS[i % 4]}">${esc(n)}</b>` +
      (D.decks[i] ? ` (${esc(D.decks[i])})` : "")).join(" vs ") +
    ` · ${L.length} lines · ` + (r.cut === null ? `${esc(r.reason)} (turn ${r.turns})`
      : `no result: the trace ends at turn ${r.turns}, cut after record ${r.cut}`) +
    (D.viewer !== null ? ` · <b>as ${esc(D.viewer)}</b>: only what ${esc(D.viewer)} could see` : "");
  const lanes = P.length + 1;
  document.documentElement.style.setProperty("--lanes", `repeat(${lanes}, var(--lane))`);
  $("lanes").innerHTML = `<span class="num">line</span>` +
    P.map((n, i) => `<span style="color:${COLORS[i % 4]}">${esc(n)}</span>`).join("") +
    `<span>game</span><span class="text">what happened</span>`;
  const legend = document.createElement("div");
  legend.className = "legend";
  legend.innerHTML = MARKS.map(([m, label]) => `<span><i class="mark m-${m}"></i>${label}</span>`).join("");
  $("lanes").after(legend);

  const html = [];
  let turn = -1, step = null;
  const laneCells = (seats, mark) => {
    const cells = [];
    for (let lane = 0; lane < lanes; lane++) {
      const here = lane < P.length ? seats.includes(lane) : seats.length === 0;
      cells.push(`<span class="lane">${here ? `<i class="mark m-${mark}"></i>` : ""}</span>`);
    }
    return cells.join("");
  };
  L.forEach((row, i) => {
    const [label, t, s, active, seats, mark, , text, , stepSeq, folded] = row;
    if (t !== turn) {
      // Turn 0 holds what came before the game: who takes the first turn, opening hands, mulligans.
      html.push(`<div class="heading turn">${t ? `Turn ${t}: ${esc(P[active])}` : "Before the game"}</div>`);
      turn = t; step = null;
    }
    if (`${s} ${stepSeq}` !== step) {
      // A step's heading carries the record of its step change: what `trace why --seq` explains.
      html.push(`<div class="heading step">${esc(stepName(s))}${stepSeq ? ` (${stepSeq})` : ""}</div>`);
      step = `${s} ${stepSeq}`;
    }
    const fold = folded.length > 0;
    html.push(`<div class="row${fold ? " fold" : ""}" role="option" data-i="${i}"` +
              `${fold ? ` aria-expanded="false" title="click or Enter: each pass on its own line"` : ""}>` +
              `<span class="num">${label}</span>${laneCells(seats, mark)}` +
              `<span class="text t-${mark}" title="${esc(text)}">${esc(text)}</span></div>`);
    if (fold) {
      html.push(`<div class="unfolded" id="unfolded-${i}" hidden>` + folded.map(([sub, subSeats, subMark, subText]) =>
        `<div class="subrow"><span class="num">${sub}</span>${laneCells(subSeats, subMark)}` +
        `<span class="text t-${subMark}" title="${esc(subText)}">${esc(subText)}</span></div>`).join("") + "</div>");
    }
  });
  if (r.cut !== null) html.push(`<div class="cut">the trace ends here without a result (cut after record ${r.cut})</div>`);
  $("rows").innerHTML = html.join("");
  const rowEls = Array.from(document.querySelectorAll("#rows .row"));

  // -- a folded run of passes opens (and closes) on click or Enter
  function toggleFold(i) {
    const box = document.getElementById(`unfolded-${i}`);
    if (!box) return;
    box.hidden = !box.hidden;
    rowEls[i].setAttribute("aria-expanded", String(!box.hidden));
  }

  // -- the board
  let board = viewerSeat >= 0 ? viewerSeat : -1;    // -1: the public view
  function boardButtons() {
    const choices = viewerSeat >= 0 ? [[viewerSeat, `${P[viewerSeat]}'s view`]]
      : [[-1, "public"], ...P.map((n, i) => [i, `${n}'s view`])];
    $("boardbar").innerHTML = choices.map(([s, label]) =>
      `<button data-b="${s}" class="${s === board ? "on" : ""}">${esc(label)}</button>`).join("");
  }
  $("boardbar").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    board = Number(b.dataset.b);
    boardButtons();
    if (selected >= 0) show(selected);
  });

  function publicView(i) {
    // The newest view any seat had, without its hand; a permanent any seat saw face down is
    // face down.
    const have = latest[i].filter((v) => v >= 0);
    if (!have.length) return null;
    const newest = V[Math.max(...have)];
    const faceDown = new Set();
    for (const v of have) for (const o of V[v].battlefield) if (!o[1]) faceDown.add(o[0]);
    const hide = (o) => faceDown.has(o[0]) ? [o[0], "", ...o.slice(2, 11), []] : o;
    return Object.assign({}, newest, {hand: null, battlefield: newest.battlefield.map(hide)});
  }

  function name(ref, v) {
    if (ref >= 1 && ref <= P.length) return P[ref - 1];
    for (const o of v.battlefield.concat(v.exile, v.hand || [])) if (o[0] === ref) return o[1] || "a face-down permanent";
    for (const s of v.stack) if (s[0] === ref) return s[1];
    return "#" + ref;
  }

  function card(o, v) {
    const [id, nm, , types, tapped, power, toughness, damage, counters, flags, attached, marks] = o;
    const cls = ["card"];
    if (tapped) cls.push("tapped");
    if (flags.includes("a")) cls.push("attacking");
    if (flags.includes("b")) cls.push("blocking");
    const extra = [];
    if (types.includes("Creature")) extra.push(`${power}/${toughness}`);
    if (damage) extra.push(`${damage} damage`);
    for (const [c, n] of counters) extra.push(`${n} ${c}`);
    if (tapped) extra.push("tapped");
    if (flags.includes("s")) extra.push("sick");
    if (flags.includes("a")) extra.push("attacking");
    if (flags.includes("b")) extra.push("blocking");
    if (attached) extra.push(`on ${name(attached, v)}`);
    for (const m of marks) extra.push(m);
    return `<span class="${cls.join(" ")}" title="#${id}">${esc(nm || "face down")}` +
      (extra.length ? ` <small>${esc(extra.join(", "))}</small>` : "") + "</span>";
  }
  const zone = (label, objs, v) => `<div class="zone"><span class="z">${label}</span>` +
    (objs.length ? objs.map((o) => card(o, v)).join("") : "<small>empty</small>") + "</div>";

  function drawBoard(i) {
    const vi = board >= 0 ? latest[i][board] : -2;
    const v = board >= 0 ? (vi >= 0 ? V[vi] : null) : publicView(i);
    if (!v) { $("board").innerHTML = `<p class="note">No view yet at this line.</p>`; return; }
    let out = `<p class="note">${board >= 0 ? esc(P[board]) + "'s view" : "What every player could see"}` +
      ` as last sent (turn ${v.turn}, ${esc(stepName(v.step))}` +
      `${v.priority >= 0 ? `, priority: ${esc(P[v.priority])}` : ""})</p><div class="players">`;
    v.players.forEach((p, s) => {
      const mana = p.mana.map(([c, n]) => `${c}${n}`).join(" ");
      out += `<div class="player${s === v.active ? " active" : ""}${p.lost ? " lost" : ""}">` +
        `<b style="color:${COLORS[s % 4]}">${esc(p.name)}</b> life <b>${p.life}</b>` +
        (p.poison ? `, poison <b>${p.poison}</b>` : "") +
        `<br>hand ${p.hand}, library ${p.library}${mana ? ", mana " + esc(mana) : ""}${p.lost ? " (lost)" : ""}` +
        (p.dungeon ? `<br>dungeon: ${esc(p.dungeon)}` : "") +
        zone("battlefield", v.battlefield.filter((o) => o[2] === s), v) +
        zone("graveyard", p.graveyard, v) + "</div>";
    });
    out += "</div>";
    out += `<div class="zone"><span class="z">stack</span>` + (v.stack.length ? v.stack.map((s) =>
      `<span class="card" title="#${s[0]}">${esc(s[1])}${s[3] ? " <small>ability</small>" : ""}` +
      (s[4].length ? ` <small>→ ${esc(s[4].map((t) => name(t, v)).join(", "))}</small>` : "") +
      `</span>`).join("") : "<small>empty</small>") + "</div>";
    if (v.exile.length) out += zone("exile", v.exile, v);
    if (v.hand) out += zone(`${esc(P[v.seat])}'s hand`, v.hand, v);
    $("board").innerHTML = out;
  }

  // -- selection
  let selected = -1;
  function show(i) {
    const row = L[i];
    const p = D.payloads[i];
    $("payload").textContent = `line ${row[0]} · ${row[1] ? `turn ${row[1]}` : "before the game"}, ` +
      `${stepName(row[2])} · ${row[6]}\n${row[7]}\n\n` +
      (p === null ? "(a folded run of records: no single payload)" : JSON.stringify(p, null, 2));
    drawBoard(i);
    drawCursor(i);
  }
  function select(i, scroll) {
    if (i < 0 || i >= L.length) return;
    if (selected >= 0) { rowEls[selected].classList.remove("sel"); rowEls[selected].setAttribute("aria-selected", "false"); }
    selected = i;
    rowEls[i].classList.add("sel");
    rowEls[i].setAttribute("aria-selected", "true");
    if (scroll) rowEls[i].scrollIntoView({block: "nearest"});
    show(i);
  }
  $("rows").addEventListener("click", (e) => {
    const row = e.target.closest(".row");
    if (row) { select(Number(row.dataset.i), false); toggleFold(Number(row.dataset.i)); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    const step = {j: 1, ArrowDown: 1, k: -1, ArrowUp: -1}[e.key];
    if (step) { select(selected < 0 ? 0 : Math.min(L.length - 1, Math.max(0, selected + step)), true); e.preventDefault(); }
    else if (e.key === "Home") { select(0, true); e.preventDefault(); }
    else if (e.key === "End") { select(L.length - 1, true); e.preventDefault(); }
    else if (e.key === "Enter" && selected >= 0 && L[selected][10].length
             && !e.target.closest("button, input, select, textarea, a")) { toggleFold(selected); e.preventDefault(); }
  });

  // -- the life chart
  const W = 1000, H = 120, PAD = 24;
  const life = D.life;
  let top = 20;
  for (const [, lives, poisons] of life) top = Math.max(top, ...lives, ...poisons);
  const x = (i) => PAD + (W - 2 * PAD) * (L.length > 1 ? i / (L.length - 1) : 0);
  const y = (v) => H - 14 - (H - 24) * Math.max(0, v) / top;
  let svg = `<svg viewBox="0 0 ${W} ${H}" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">`;
  let t0 = -1;
  L.forEach((row, i) => {
    if (row[1] !== t0) {
      t0 = row[1];
      svg += `<line class="turn" x1="${x(i)}" x2="${x(i)}" y1="4" y2="${H - 14}"/>` +
        (t0 % 2 === 1 || L.length < 400 ? `<text x="${x(i) + 2}" y="${H - 3}">${t0 ? "T" + t0 : ""}</text>` : "");
    }
  });
  svg += `<line class="axis" x1="${PAD}" x2="${W - PAD}" y1="${y(0)}" y2="${y(0)}"/>` +
    `<text x="2" y="${y(top) + 4}">${top}</text><text x="2" y="${y(0) + 3}">0</text>`;
  const path = (k, s) => {
    let d = "", prev = null;
    for (const pt of life) {
      const v = pt[k][s];
      d += prev === null ? `M${x(pt[0])},${y(v)}` : `H${x(pt[0])}V${y(v)}`;
      prev = v;
    }
    return prev === null ? "" : d + `H${x(L.length - 1)}`;
  };
  P.forEach((n, s) => {
    svg += `<path d="${path(1, s)}" fill="none" stroke="${COLORS[s % 4]}" stroke-width="2"><title>${esc(n)}: life</title></path>`;
    if (life.some((pt) => pt[2][s] > 0))
      svg += `<path d="${path(2, s)}" fill="none" stroke="${COLORS[s % 4]}" stroke-width="1.5" stroke-dasharray="4 3"><title>${esc(n)}: poison</title></path>`;
  });
  svg += `<line id="cursor" class="cursor" x1="-10" x2="-10" y1="2" y2="${H - 14}"/></svg>`;
  $("chart").innerHTML = svg;
  const chart = $("chart").querySelector("svg");
  function drawCursor(i) {
    const c = document.getElementById("cursor");
    c.setAttribute("x1", x(i)); c.setAttribute("x2", x(i));
  }
  chart.addEventListener("click", (e) => {
    const box = chart.getBoundingClientRect();
    const f = ((e.clientX - box.left) / box.width * W - PAD) / (W - 2 * PAD);
    select(Math.round(Math.min(1, Math.max(0, f)) * (L.length - 1)), true);
  });

  boardButtons();
  document.body.dataset.ready = "1";
})();
