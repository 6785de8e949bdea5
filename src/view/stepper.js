// The backward-pass stepper: draws the graph from the page's JSON data and replays the
// recorded steps (the seed `self.grad = 1`, then each node's rule) forwards and back.
"use strict";
(function () {
  const g = JSON.parse(document.getElementById("graph").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const H = 30, CHAR = 7.8, PAD = 16;
  const grads = g.nodes.map(() => ["0.0", "0.0000"]);
  let applied = 0;

  function el(tag, attrs, parent, text) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }
  function html(tag, parent, text, attrs) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    parent.appendChild(e);
    return e;
  }
  function name(i) {
    const n = g.nodes[i];
    return n.label !== null ? n.label : (n.op ? "(" + n.op + " #" + i + ")" : "(#" + i + ")");
  }

  html("h1", document.body, "backward() of " + g.title + ", step by step");
  const controls = html("div", document.body, undefined, { id: "controls" });
  const buttons = {};
  for (const [id, text, title] of [["first", "\u25c0\u25c0 start", "back to zero grads"],
      ["prev", "\u25c0 back", "undo one step (\u2190)"], ["next", "step \u25b6", "run one step (\u2192)"],
      ["last", "end \u25b6\u25b6", "run every step"]]) {
    buttons[id] = html("button", controls, text, { id: id, title: title });
  }
  const counter = html("span", controls, "", { id: "counter" });
  const panel = html("div", document.body, undefined, { id: "panel" });
  const box = html("div", document.body, undefined, { id: "graph-box" });
  html("p", document.body, "Keys: \u2192 step, \u2190 back. Grads show 4 decimals; the table shows them in full.",
    { class: "hint" });

  const svg = el("svg", { width: g.width, height: g.height, viewBox: "0 0 " + g.width + " " + g.height,
    id: "graph-svg" }, box);
  const edges = el("g", {}, svg);
  const records = [], ops = [], gradTexts = [], inEdges = g.nodes.map(() => []);
  g.nodes.forEach((n, i) => {
    const cx = n.x - 50, cy = n.y + H / 2;
    if (n.parents.length) {
      const op = el("g", { class: "op", id: "op" + i }, svg);
      el("circle", { cx: cx, cy: cy, r: 16 }, op);
      el("text", { x: cx, y: cy, "text-anchor": "middle" }, op, n.op.length > 6 ? n.op.slice(0, 5) + "\u2026" : n.op);
      el("title", {}, op, n.op);
      ops[i] = op;
      el("path", { class: "edge", d: "M" + (cx + 16) + "," + cy + " L" + n.x + "," + cy }, edges);
      n.parents.forEach((p) => {
        const q = g.nodes[p], x0 = q.x + q.w, y0 = q.y + H / 2, mid = (x0 + cx - 16) / 2;
        const path = el("path", { class: "edge", d: "M" + x0 + "," + y0 + " C" + mid + "," + y0 + " " +
          mid + "," + cy + " " + (cx - 16) + "," + cy }, edges);
        inEdges[i].push(path);
      });
    }
    const r = el("g", { class: "record", id: "v" + i, "data-name": name(i) }, svg);
    el("rect", { x: n.x, y: n.y, width: n.w, height: H }, r);
    let x = n.x;
    const field = (text, width, cls) => {
      const t = el("text", { x: x + width / 2, y: n.y + H / 2, "text-anchor": "middle", class: cls }, r, text);
      x += width;
      if (x < n.x + n.w - 1) el("line", { x1: x, y1: n.y, x2: x, y2: n.y + H }, r);
      return t;
    };
    const rest = n.label !== null ? n.w - (n.label.length * CHAR + PAD) : n.w;
    if (n.label !== null) field(n.label, n.label.length * CHAR + PAD, "label");
    field("data " + n.dataShown, rest / 2, "data").setAttribute("data-value", n.data);
    gradTexts[i] = field("grad 0.0000", rest / 2, "grad");
    gradTexts[i].setAttribute("data-grad", "0.0");
    records[i] = r;
  });

  function show() {
    g.nodes.forEach((_, i) => {
      gradTexts[i].textContent = "grad " + grads[i][1];
      gradTexts[i].setAttribute("data-grad", grads[i][0]);
      records[i].classList.remove("active", "changed");
      if (ops[i]) ops[i].classList.remove("active");
      inEdges[i].forEach((e) => e.classList.remove("active"));
    });
    document.body.setAttribute("data-step", applied);
    counter.textContent = "step " + applied + " of " + g.steps.length;
    buttons.first.disabled = buttons.prev.disabled = applied === 0;
    buttons.next.disabled = buttons.last.disabled = applied === g.steps.length;
    panel.textContent = "";
    if (applied === 0) {
      html("h2", panel, "Every grad is 0. backward() first sets the output's grad to 1, then runs " +
        "each node's rule, from the output back to the leaves (reverse topological order).");
      return;
    }
    const s = g.steps[applied - 1];
    records[s.node].classList.add("active");
    // A wide graph scrolls: keep the node whose rule runs in view.
    if (records[s.node].scrollIntoView) records[s.node].scrollIntoView({ block: "nearest", inline: "center" });
    if (ops[s.node] && !s.seed) {
      ops[s.node].classList.add("active");
      inEdges[s.node].forEach((e) => e.classList.add("active"));
    }
    const n = g.nodes[s.node];
    html("h2", panel, s.seed ? "Seed: " + name(s.node) + ".grad = 1" :
      (n.parents.length ? "Rule of " + name(s.node) + " = " + n.op + "(" + n.parents.map(name).join(", ") + ")"
        : "Leaf " + name(s.node) + ": no rule to run"));
    html("div", panel, s.caption, { class: "caption" });
    if (s.python.length) html("pre", panel, s.python.join("\n"), { class: "python" });
    if (s.rust.length) {
      html("div", panel, "this crate's Rust (src/engine/)", { class: "caption" });
      html("pre", panel, s.rust.join("\n"), { class: "rust" });
    }
    if (s.changes.length) {
      const t = html("table", panel, undefined, { id: "changes" });
      const head = html("tr", t);
      ["grad of", "before", "after"].forEach((h) => html("th", head, h));
      s.changes.forEach(([node, before, after]) => {
        records[node].classList.add("changed");
        const row = html("tr", t);
        html("td", row, name(node));
        html("td", row, before);
        html("td", row, after);
      });
    }
  }
  function forward() {
    if (applied === g.steps.length) return;
    g.steps[applied].changes.forEach(([node, , after, , shown]) => { grads[node] = [after, shown]; });
    applied += 1;
  }
  function back() {
    if (applied === 0) return;
    applied -= 1;
    g.steps[applied].changes.forEach(([node, before, , shown]) => { grads[node] = [before, shown]; });
  }
  buttons.next.onclick = () => { forward(); show(); };
  buttons.prev.onclick = () => { back(); show(); };
  buttons.first.onclick = () => { while (applied > 0) back(); show(); };
  buttons.last.onclick = () => { while (applied < g.steps.length) forward(); show(); };
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") buttons.next.onclick();
    if (e.key === "ArrowLeft") buttons.prev.onclick();
  });
  show();
})();
