"use strict";
(function () {
  const D = JSON.parse(document.getElementById("trace-data").textContent);
  const L = D.lines;            // [label, turn, step, active, lanes, mark, kind, text, view, stepSeq, folded]
  const P = D.players;
  const V = D.views;
  const C = D.cards;            // name -> {cost, type, pt, text}: the printed card
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
    P.map((n, i) => `<span class="who" title="${esc(n)}" style="color:${COLORS[i % 4]}">${esc(n)}</span>`).join("") +
    `<span class="who">game</span><span class="text">what happened</span>`;
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
    if (types.includes("Creature")) {
      // Off the battlefield the data gives the printed P/T (null: none printed).
      if (power !== null && toughness !== null) extra.push(`${power}/${toughness}`);
      else if (C[nm] && C[nm].pt) extra.push(C[nm].pt);
    }
    if (damage) extra.push(`${damage} damage`);
    for (const [c, n] of counters) extra.push(`${n} ${c}`);
    if (tapped) extra.push("tapped");
    if (flags.includes("s")) extra.push("sick");
    if (flags.includes("a")) extra.push("attacking");
    if (flags.includes("b")) extra.push("blocking");
    if (attached) extra.push(`on ${name(attached, v)}`);
    for (const m of marks) extra.push(m);
    return `<span class="${cls.join(" ")}"${cardAttrs(nm, id)}>${esc(nm || "face down")}` +
      (extra.length ? ` <small>${esc(extra.join(", "))}</small>` : "") + "</span>";
  }
  // -- a card's printed mana cost, type line and Oracle text: on hover (the title) and on a
  // click (the box under the board)
  function cardWords(nm) {
    const c = C[nm];
    if (!c) return "";
    return [nm + (c.cost ? " " + c.cost : ""), c.type + (c.pt ? " · " + c.pt : ""), c.text].filter((t) => t).join("\n");
  }
  function cardAttrs(nm, id) {
    const words = cardWords(nm);
    return ` title="${esc(words ? words + "\n#" + id : "#" + id)}"` + (words ? ` data-card="${esc(nm)}" tabindex="0"` : "");
  }
  function showCard(nm) {
    const box = $("card");
    box.hidden = !nm;
    box.textContent = nm ? cardWords(nm) : "";
  }
  $("board").addEventListener("click", (e) => {
    const chip = e.target.closest("[data-card]");
    if (chip) showCard(chip.dataset.card);
  });
  $("board").addEventListener("keydown", (e) => {
    const chip = e.target.closest("[data-card]");
    if (chip && e.key === "Enter") showCard(chip.dataset.card);
  });

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
      `<span class="card"${cardAttrs(s[1], s[0])}>${esc(s[1])}${s[3] ? " <small>ability</small>" : ""}` +
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
    if (scroll) scrollToRow(i);
    show(i);
    setAddress(i);
  }
  function scrollToRow(i, middle) {
    // Keep the row in sight below the heading drawn over the top of the rows.
    const rows = $("rows"), el = rowEls[i], over = $("where").offsetHeight || 26;
    if (middle) rows.scrollTop = el.offsetTop - rows.clientHeight / 3;
    else if (el.offsetTop - over < rows.scrollTop) rows.scrollTop = el.offsetTop - over;
    else if (el.offsetTop + el.offsetHeight > rows.scrollTop + rows.clientHeight)
      rows.scrollTop = el.offsetTop + el.offsetHeight - rows.clientHeight;
  }
  $("rows").addEventListener("click", (e) => {
    const row = e.target.closest(".row");
    if (row) { select(Number(row.dataset.i), false); toggleFold(Number(row.dataset.i)); }
  });
  document.addEventListener("keydown", (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target.closest && e.target.closest("input, select, textarea")) return;  // typing, not stepping
    if (e.key === "/") { $("search").focus(); e.preventDefault(); return; }
    const step = {j: 1, ArrowDown: 1, k: -1, ArrowUp: -1}[e.key];
    if (step) { select(selected < 0 ? 0 : Math.min(L.length - 1, Math.max(0, selected + step)), true); e.preventDefault(); }
    else if (e.key === "Home") { select(0, true); e.preventDefault(); }
    else if (e.key === "End") { select(L.length - 1, true); e.preventDefault(); }
    else if (e.key === "Enter" && selected >= 0 && L[selected][10].length
             && !e.target.closest("button, input, select, textarea, a")) { toggleFold(selected); e.preventDefault(); }
  });

  // -- the address: #line=N selects the line numbered N (the folded run holding N; with no
  // line N, the next line after it), and selecting a line writes its number there
  function lineAt(n) {
    for (let i = 0; i < L.length; i++) {
      const [first, last] = String(L[i][0]).split("-").map(Number);
      if (n <= (last === undefined ? first : last)) return i;
    }
    return L.length - 1;
  }
  function lineFromAddress() {
    const m = /^#line=(\d+)$/.exec(location.hash);
    return m ? lineAt(Number(m[1])) : -1;
  }
  function setAddress(i) {
    const hash = "#line=" + String(L[i][0]).split("-")[0];
    if (location.hash !== hash) history.replaceState(null, "", hash);
  }
  window.addEventListener("hashchange", () => {
    const i = lineFromAddress();
    if (i >= 0 && i !== selected) select(i, true);
  });

  // -- the heading over the rows: the turn and step of the top row, on one line
  function drawWhere() {
    const rows = $("rows"), where = $("where");
    // The headings of the first row below this one (it covers the rows' top).
    const top = rows.scrollTop + (where.offsetHeight || 24) + 8;
    let turn = null, step = null;
    for (const h of rows.querySelectorAll(".heading")) {
      if (h.offsetTop > top) break;
      if (h.classList.contains("step")) step = h;
      else { turn = h; step = null; }
    }
    where.hidden = rows.scrollTop <= 0 || !turn;
    if (where.hidden) return;
    where.textContent = turn.textContent + (step ? " · " + step.textContent : "");
    where.style.width = rows.clientWidth + "px";
  }
  let whereQueued = false;
  $("rows").addEventListener("scroll", () => {
    if (whereQueued) return;
    whereQueued = true;
    requestAnimationFrame(() => { whereQueued = false; drawWhere(); });
  });

  // -- the line numbers' column: as wide as the longest number or range, on one line
  function sizeNumbers() {
    const widest = Math.max(4, ...L.map((row) => String(row[0]).length));
    document.documentElement.style.setProperty("--num", `${widest + 2}ch`);
  }

  // -- jump to a turn
  function turnList() {
    const starts = [];
    L.forEach((row, i) => { if (!starts.length || L[starts[starts.length - 1]][1] !== row[1]) starts.push(i); });
    $("turn").innerHTML = `<option value="">turn…</option>` + starts.map((i) =>
      `<option value="${i}">${L[i][1] ? `Turn ${L[i][1]}: ${esc(P[L[i][3]])}` : "Before turn 1"}</option>`).join("");
    $("turn").addEventListener("change", (e) => {
      if (e.target.value !== "") {
        // The turn's start at the top: its heading, then its lines (not its first line at the
        // bottom, under the turn before).
        const i = Number(e.target.value);
        select(i, false);
        let heading = rowEls[i].previousElementSibling;
        while (heading && !heading.classList.contains("turn")) heading = heading.previousElementSibling;
        $("rows").scrollTop = heading ? heading.offsetTop : rowEls[i].offsetTop;
      }
      e.target.value = "";
    });
  }

  // -- search the lines: every match highlighted, Enter (or ›) the next, Shift+Enter (or ‹) the one before
  let matches = [];
  function highlight(i, query) {
    const el = rowEls[i].querySelector(".text"), text = L[i][7];
    if (!query) { el.textContent = text; rowEls[i].classList.remove("match"); return; }
    const lower = text.toLowerCase();
    let out = "", at = 0;
    for (let k = lower.indexOf(query); k >= 0; k = lower.indexOf(query, k + query.length)) {
      out += esc(text.slice(at, k)) + `<mark>${esc(text.slice(k, k + query.length))}</mark>`;
      at = k + query.length;
    }
    el.innerHTML = out + esc(text.slice(at));
    rowEls[i].classList.add("match");
  }
  function search() {
    const query = $("search").value.trim().toLowerCase();
    for (const i of matches) highlight(i, "");
    matches = query ? L.map((row, i) => i).filter((i) => L[i][7].toLowerCase().includes(query)) : [];
    for (const i of matches) highlight(i, query);
    countMatches();
  }
  function countMatches() {
    const at = matches.indexOf(selected);
    $("matches").textContent = !$("search").value.trim() ? "" : !matches.length ? "no match"
      : `${at >= 0 ? at + 1 + " of " : ""}${matches.length} match${matches.length === 1 ? "" : "es"}`;
  }
  function nextMatch(dir) {
    if (!matches.length) return;
    let i = dir > 0 ? matches.find((m) => m > selected) : [...matches].reverse().find((m) => m < selected);
    if (i === undefined) i = dir > 0 ? matches[0] : matches[matches.length - 1];  // round again
    select(i, true);
    countMatches();
  }
  function searchBox() {
    $("search").addEventListener("input", search);
    $("search").addEventListener("keydown", (e) => {
      if (e.key === "Enter") { nextMatch(e.shiftKey ? -1 : 1); e.preventDefault(); }
      else if (e.key === "Escape") { e.target.value = ""; search(); e.target.blur(); }
    });
    $("next").addEventListener("click", () => nextMatch(1));
    $("prev").addEventListener("click", () => nextMatch(-1));
  }

  // -- the life chart: drawn at its width in pixels (redrawn when that changes), life on the
  // left scale, poison (dashed) on a scale of its own on the right, turn labels thinned to fit
  const H = 120, BOTTOM = 14, TOP = 6;
  const life = D.life;
  let chartW = 1000, PADL = 26, PADR = 26;
  const x = (i) => PADL + (chartW - PADL - PADR) * (L.length > 1 ? i / (L.length - 1) : 0);
  function drawChart() {
    chartW = Math.max(200, Math.round($("chart").clientWidth) || 1000);
    let lifeTop = 20, poisonTop = 10;
    for (const [, lives, poisons] of life) { lifeTop = Math.max(lifeTop, ...lives); poisonTop = Math.max(poisonTop, ...poisons); }
    const poisoned = P.map((n, s) => life.some((pt) => pt[2][s] > 0));
    const anyPoison = poisoned.some((p) => p);
    PADR = anyPoison ? 26 : 8;
    const scale = (top) => (v) => H - BOTTOM - (H - BOTTOM - TOP) * Math.max(0, v) / top;
    const yLife = scale(lifeTop), yPoison = scale(poisonTop);
    let svg = `<svg viewBox="0 0 ${chartW} ${H}" width="${chartW}" height="${H}" xmlns="http://www.w3.org/2000/svg">`;
    // Turn lines, and a label for each turn that has room after the last one drawn.
    let t0 = null, free = PADL;
    L.forEach((row, i) => {
      if (row[1] === t0) return;
      t0 = row[1];
      svg += `<line class="turn" x1="${x(i)}" x2="${x(i)}" y1="${TOP}" y2="${H - BOTTOM}"/>`;
      const label = t0 ? "T" + t0 : "";
      const w = label.length * 6.5;
      if (label && x(i) >= free && x(i) + w <= chartW) {
        svg += `<text class="tlabel" x="${x(i) + 1}" y="${H - 3}">${label}</text>`;
        free = x(i) + w + 6;
      }
    });
    svg += `<line class="axis" x1="${PADL}" x2="${chartW - PADR}" y1="${yLife(0)}" y2="${yLife(0)}"/>` +
      `<text x="2" y="${yLife(lifeTop) + 8}">${lifeTop}</text><text x="2" y="${yLife(0)}">0</text>`;
    if (anyPoison)
      svg += `<line class="axis" x1="${chartW - PADR}" x2="${chartW - PADR}" y1="${TOP}" y2="${H - BOTTOM}"/>` +
        `<text class="poison" x="${chartW - PADR + 3}" y="${yPoison(poisonTop) + 8}">${poisonTop}</text>` +
        `<text class="poison" x="${chartW - PADR + 3}" y="${yPoison(0)}">0</text>`;
    const path = (k, s, y) => {
      let d = "", prev = null;
      for (const pt of life) {
        const v = pt[k][s];
        d += prev === null ? `M${x(pt[0])},${y(v)}` : `H${x(pt[0])}V${y(v)}`;
        prev = v;
      }
      return prev === null ? "" : d + `H${x(L.length - 1)}`;
    };
    P.forEach((n, s) => {
      svg += `<path d="${path(1, s, yLife)}" fill="none" stroke="${COLORS[s % 4]}" stroke-width="2"><title>${esc(n)}: life</title></path>`;
      if (poisoned[s])
        svg += `<path class="poison" d="${path(2, s, yPoison)}" fill="none" stroke="${COLORS[s % 4]}" stroke-width="1.5" stroke-dasharray="4 3"><title>${esc(n)}: poison</title></path>`;
    });
    svg += `<line id="cursor" class="cursor" x1="-10" x2="-10" y1="2" y2="${H - BOTTOM}"/></svg>`;
    $("chart").innerHTML = svg;
    $("chartlegend").innerHTML = P.map((n, s) =>
      `<span><svg width="22" height="8"><line x1="0" x2="22" y1="4" y2="4" stroke="${COLORS[s % 4]}" stroke-width="2"/></svg>${esc(n)}'s life (left scale)</span>` +
      (poisoned[s] ? `<span><svg width="22" height="8"><line x1="0" x2="22" y1="4" y2="4" stroke="${COLORS[s % 4]}" stroke-width="1.5" stroke-dasharray="4 3"/></svg>${esc(n)}'s poison (right scale)</span>` : "")).join("");
    if (selected >= 0) drawCursor(selected);
  }
  function drawCursor(i) {
    const c = document.getElementById("cursor");
    c.setAttribute("x1", x(i)); c.setAttribute("x2", x(i));
  }
  $("chart").addEventListener("click", (e) => {
    const box = $("chart").getBoundingClientRect();
    const f = (e.clientX - box.left - PADL) / (chartW - PADL - PADR);
    select(Math.round(Math.min(1, Math.max(0, f)) * (L.length - 1)), true);
  });
  let chartQueued = false;
  window.addEventListener("resize", () => {
    if (chartQueued) return;
    chartQueued = true;
    requestAnimationFrame(() => { chartQueued = false; if (Math.round($("chart").clientWidth) !== chartW) drawChart(); drawWhere(); });
  });

  sizeNumbers();
  boardButtons();
  drawChart();
  turnList();
  searchBox();
  {
    const i = lineFromAddress();
    select(i >= 0 ? i : 0, false);
    if (i >= 0) scrollToRow(i, true);
  }
  document.body.dataset.ready = "1";
})();
