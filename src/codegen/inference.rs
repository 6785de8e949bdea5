//! Inference-only C ([`CodeGen::inference`](super::CodeGen::inference)): the outputs
//! from the inputs and nothing else. The weights are `const` (a microcontroller keeps
//! them in flash); the caller's buffer holds the inputs the outputs depend on and the
//! values of the nodes alive at once, each node's place reused once nobody reads it.

use std::fmt::Write;

use super::listing::Instruction;
use super::ops::Real;
use super::plan::{self, Role, Span};
use super::source::{Program, SPANS_INLINE};

/// Where the inference C keeps a node's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// `weights[i]`: a parameter or constant, in flash.
    Flash(usize),
    /// `buf[i]`: an input, or an inner node's value while it is needed.
    Ram(usize),
}

impl Place {
    /// The C expression of the number there.
    fn c(self) -> String {
        match self {
            Place::Flash(i) => format!("weights[{i}]"),
            Place::Ram(i) => format!("buf[{i}]"),
        }
    }

    /// The place `n` numbers further on.
    fn plus(self, n: usize) -> Place {
        match self {
            Place::Flash(i) => Place::Flash(i + n),
            Place::Ram(i) => Place::Ram(i + n),
        }
    }
}

/// A run of terms `x[i] * y[i]`, `i < len`, whose factors lie one after another in
/// flash or in the buffer.
#[derive(Clone, Copy, Debug)]
struct Piece {
    x: Place,
    y: Place,
    len: usize,
}

/// Which nodes the outputs need, where each is kept, and the pieces of the sums.
struct Layout {
    /// The outputs: the tape's named outputs, or its root if it has none.
    outputs: Vec<usize>,
    /// Each node's place (`None`: the outputs do not need it); the last entry is the
    /// constant 1 of the sums' terms that are not products.
    place: Vec<Option<Place>>,
    /// The numbers in flash, in order.
    weights: Vec<f64>,
    /// How many inputs the buffer holds (at its start).
    inputs: usize,
    /// The whole buffer.
    len: usize,
    /// The pieces of every sum, back to back; sum `k`'s are `pieces[of_sum[k]]`.
    pieces: Vec<Piece>,
    of_sum: Vec<std::ops::Range<usize>>,
}

impl Program<'_> {
    /// The operands of inner node `k` (the constant 1 is node `nodes()`).
    fn operands(&self, k: usize) -> Vec<usize> {
        match &self.listing.inner[k - self.listing.leaves] {
            Instruction::Unary(_, a, _) => vec![*a],
            Instruction::Binary(_, a, b) => vec![*a, *b],
            Instruction::Dot(_, runs) => (self.listing.runs[runs.clone()].iter())
                .flat_map(|t| (t.x..t.x + t.len).chain(t.y..t.y + t.len))
                .collect(),
            Instruction::Custom(_) => Vec::new(),
        }
    }

    /// The layout of the inference C: which nodes are needed, in what order they live.
    fn layout(&self) -> Layout {
        let (leaves, n) = (self.listing.leaves, self.nodes());
        let outputs = match self.listing.outputs.is_empty() {
            true => vec![self.root()],
            false => self.listing.outputs.clone(),
        };
        // Needed: the outputs and, last node first, every operand of a needed node.
        let mut needed = vec![false; n + 1];
        let mut last_use = vec![0; n + 1];
        for &k in &outputs {
            (needed[k], last_use[k]) = (true, usize::MAX);
        }
        for k in (leaves..n).rev() {
            if needed[k] {
                for a in self.operands(k) {
                    needed[a] = true;
                    last_use[a] = last_use[a].max(k);
                }
            }
        }
        let mut place = vec![None; n + 1];
        // The inputs at the buffer's start, the rest of the leaves in flash, in order.
        let (mut inputs, mut weights) = (0, Vec::new());
        for k in (0..leaves).chain([n]).filter(|&k| needed[k]) {
            if matches!(self.roles.get(k), Some(Role::Input { .. })) {
                place[k] = Some(Place::Ram(inputs));
                inputs += 1;
            } else {
                place[k] = Some(Place::Flash(weights.len()));
                weights.push(self.data.get(k).copied().unwrap_or(1.0));
            }
        }
        // Inner nodes: the first free places (a layer's sums side by side, so that
        // the next layer reads them as one run); a place is free once the last node
        // that reads its value has been computed.
        let mut busy_until: Vec<usize> = Vec::new();
        let mut k = leaves;
        while k < n {
            let layer = (self.layers.iter())
                .find(|l| l.plan.first == k && (k..k + l.plan.width).all(|j| needed[j]));
            let width = layer.map_or(1, |l| l.plan.width);
            if !needed[k] {
                k += 1;
                continue;
            }
            let free = |s: usize| busy_until.get(s).is_none_or(|&t| t < k);
            let start = (0..).find(|&s| (s..s + width).all(free)).unwrap_or(0);
            if busy_until.len() < start + width {
                busy_until.resize(start + width, 0);
            }
            for j in 0..width {
                busy_until[start + j] = last_use[k + j];
                place[k + j] = Some(Place::Ram(inputs + start + j));
            }
            k += width;
        }
        // The sums' runs, cut where a factor moves from flash to the buffer or where
        // consecutive nodes are not in consecutive places.
        let (mut pieces, mut of_sum): (Vec<Piece>, _) = (Vec::new(), vec![0..0; n]);
        for k in leaves..n {
            let Instruction::Dot(_, runs) = &self.listing.inner[k - leaves] else {
                continue;
            };
            if place[k].is_none() {
                continue;
            }
            let start = pieces.len();
            for t in &self.listing.runs[runs.clone()] {
                for i in 0..t.len {
                    let (Some(x), Some(y)) = (place[t.x + i], place[t.y + i]) else {
                        continue;
                    };
                    match pieces[start..].last_mut() {
                        Some(p) if p.x.plus(p.len) == x && p.y.plus(p.len) == y => {
                            p.len += 1;
                        }
                        _ => pieces.push(Piece { x, y, len: 1 }),
                    }
                }
            }
            of_sum[k] = start..pieces.len();
        }
        Layout {
            outputs,
            place,
            weights,
            inputs,
            len: inputs + busy_until.len(),
            pieces,
            of_sum,
        }
    }

    /// The value of node `k` as C.
    fn at(layout: &Layout, k: usize) -> String {
        layout.place[k].map_or_else(|| "0".to_owned(), Place::c)
    }

    /// `name.h` and `name.c` of the inference C.
    pub(super) fn inference(&self, name: &str) -> (String, String) {
        let layout = self.layout();
        let mut r = Real::new(self.precision);
        let body = self.inference_forward(&layout, &mut r);
        let upper = name.to_uppercase();
        let real = r.c_type();
        let (leaves, n) = (self.listing.leaves, self.nodes());
        // Each input group's leaves in the buffer.
        let groups: Vec<(usize, Vec<Span>)> = (0..self.groups.len())
            .map(|g| {
                let mut pairs: Vec<(usize, usize)> = Vec::new();
                let mut len = 0;
                for (k, role) in self.roles.iter().enumerate() {
                    if let Role::Input { group, pos } = *role {
                        if group == g {
                            len += 1;
                            if let Some(Place::Ram(at)) = layout.place[k] {
                                pairs.push((pos, at));
                            }
                        }
                    }
                }
                pairs.sort_unstable();
                (len, plan::spans(pairs))
            })
            .collect();

        let mut h = format!(
            "/* {name}.h: written by micrograd::codegen (inference). Computes a compiled\n \
             * graph's outputs from its inputs: the weights are constants (in flash on a\n \
             * microcontroller), and all the C writes is one buffer of numbers that the\n \
             * caller owns (no malloc; nothing of the C library but math.h). The functions\n \
             * keep no state of their own: several buffers may run at once.\n \
             *\n \
             *     static {real} buf[{upper}_BUFFER_LEN];\n \
             *     {name}_set_<input>(buf, sample);         (each input group)\n \
             *     {name}_forward(buf);                     (returns output 0)\n \
             *     {name}_outputs(buf, out);                ({upper}_OUTPUTS numbers)\n \
             *\n \
             * The buffer: the inputs the outputs depend on (buf[0 .. {upper}_INPUTS)), then\n \
             * the values of the nodes that are needed at once.\n \
             */\n\
             #ifndef {upper}_H\n#define {upper}_H\n\n\
             #ifdef __cplusplus\nextern \"C\" {{\n#endif\n\n\
             typedef {real} {name}_real;\n\n\
             #define {upper}_BUFFER_LEN {} /* the caller's buffer, in {real}s */\n\
             #define {upper}_INPUTS {} /* inputs kept in it */\n\
             #define {upper}_WEIGHTS {} /* constant numbers (parameters and constants) */\n\
             #define {upper}_OUTPUTS {} /* outputs (the outputs function) */\n",
            layout.len.max(1),
            layout.inputs,
            layout.weights.len(),
            layout.outputs.len(),
        );
        for (group, (len, _)) in self.groups.iter().zip(&groups) {
            let _ = writeln!(
                h,
                "#define {upper}_{}_LEN {len} /* numbers of the input `{group}` */",
                group.to_uppercase()
            );
        }
        h += "\n";
        for (group, (len, spans)) in self.groups.iter().zip(&groups) {
            let used: usize = spans.iter().map(|s| s.len).sum();
            let _ = writeln!(
                h,
                "/* Writes the input `{group}` ({upper}_{}_LEN numbers; the outputs depend on \
                 {used} of the {len}). */\n\
                 void {name}_set_{group}({name}_real *buf, const {name}_real *values);",
                group.to_uppercase()
            );
        }
        let _ = write!(
            h,
            "/* Computes the outputs from the inputs; returns output 0. */\n\
             {name}_real {name}_forward({name}_real *buf);\n\
             /* The outputs' values, in order, into out[0 .. {upper}_OUTPUTS). */\n\
             void {name}_outputs(const {name}_real *buf, {name}_real *out);\n\n\
             #ifdef __cplusplus\n}}\n#endif\n\n#endif\n"
        );

        let kept = super::kept_calls();
        let mut c = format!(
            "/* {name}.c: written by micrograd::codegen (inference) from a compiled tape of\n \
             * {n} nodes ({leaves} leaves): {} outputs from {} inputs, {} constant numbers, a\n \
             * buffer of {} numbers. What the functions do: {name}.h.\n \
             *\n \
             * Every op is computed with the formulas of its Rust rule (src/rules/, src/ops/),\n \
             * in the tape's order: compiled with -ffp-contract=off, -fno-builtin-<f> for\n \
             * libm's {kept}, and without -ffast-math\n \
             * (micrograd::codegen::C_FLAGS), the double version gives the tape's numbers\n \
             * bit for bit.\n \
             */\n\
             #include <math.h>\n\
             #include \"{name}.h\"\n\n\
             typedef {name}_real real;\n\n",
            layout.outputs.len(),
            layout.inputs,
            layout.weights.len(),
            layout.len,
        );
        // (An unused static table is a warning; the sums read it.)
        if !layout.weights.is_empty() || !layout.pieces.is_empty() {
            let _ = writeln!(
                c,
                "/* The parameters' and constants' values when the C was written. */\n\
                 static const real weights[{}] = {{",
                layout.weights.len().max(1)
            );
            for chunk in layout.weights.chunks(4) {
                let items: Vec<String> = chunk.iter().map(|&x| r.num(x)).collect();
                let _ = writeln!(c, "    {},", items.join(", "));
            }
            if layout.weights.is_empty() {
                let _ = writeln!(c, "    {}", r.num(0.0));
            }
            c += "};\n\n";
        }
        if !layout.pieces.is_empty() {
            let _ = writeln!(
                c,
                "/* The terms of the sums: piece p adds x[i] * y[i] for i < len, x from\n   \
                 weights + x if flash & 1, else from buf + x; y likewise (flash & 2). */\n\
                 typedef struct {{ unsigned long x, y, len, flash; }} piece;\n\n\
                 static const piece pieces[{}] = {{",
                layout.pieces.len()
            );
            for chunk in layout.pieces.chunks(3) {
                let items: Vec<String> = (chunk.iter())
                    .map(|p| {
                        let (x, fx) = split(p.x);
                        let (y, fy) = split(p.y);
                        format!("{{{x}, {y}, {}, {}}}", p.len, fx | (2 * fy))
                    })
                    .collect();
                let _ = writeln!(c, "    {},", items.join(", "));
            }
            let _ = write!(
                c,
                "}};\n\n\
                 /* The sum of the terms of the pieces p .. end, left to right from 0, as\n   \
                 the tape and Python's sum() add a neuron's terms. */\n\
                 static real dot(const real *buf, const piece *p, const piece *end) {{\n    \
                 real acc = {};\n    \
                 unsigned long i;\n    \
                 for (; p != end; p++) {{\n        \
                 const real *x = (p->flash & 1UL ? weights : buf) + p->x;\n        \
                 const real *y = (p->flash & 2UL ? weights : buf) + p->y;\n        \
                 for (i = 0; i < p->len; i++) acc += x[i] * y[i];\n    \
                 }}\n    \
                 return acc;\n}}\n\n",
                r.num(0.0)
            );
        }
        for &function in &r.c_functions {
            c += &r.c_function_source(function);
            c += "\n";
        }
        // (The tables are named by the group's number: a name could make `spans_<group>`
        // one of the functions, `NAME_<suffix>`.)
        if groups.iter().any(|(_, spans)| spans.len() > SPANS_INLINE) {
            c += "typedef struct { unsigned long pos, at, len; } span;\n\n";
        }
        for (i, (group, (_, spans))) in self.groups.iter().zip(&groups).enumerate() {
            if spans.len() > SPANS_INLINE {
                let items: Vec<String> = (spans.iter())
                    .map(|s| format!("{{{}, {}, {}}}", s.pos, s.at, s.len))
                    .collect();
                let _ = writeln!(
                    c,
                    "/* Where the inputs `{group}` go. */\n\
                     static const span spans_{i}[{}] = {{\n    {}\n}};",
                    spans.len(),
                    items.join(",\n    ")
                );
            }
            let loops = match spans.is_empty() {
                true => "    (void)buf;\n    (void)values;\n".to_owned(),
                false => self.span_loops(&format!("spans_{i}"), spans, |pos, at| {
                    format!("buf[{at}] = values[{pos}];")
                }),
            };
            let _ = write!(
                c,
                "/* Writes the input `{group}` into the buffer (the numbers the outputs \
                 need). */\n\
                 void {name}_set_{group}(real *buf, const real *values) {{\n{}{loops}}}\n\n",
                Self::span_decls(spans)
            );
        }
        let result = Self::at(&layout, layout.outputs[0]);
        let reads_buf = !body.is_empty() || result.contains("buf");
        let _ = write!(
            c,
            "/* Every node the outputs need, in the tape's order. */\n\
             real {name}_forward(real *buf) {{\n{}{body}    return {result};\n}}\n\n",
            if reads_buf { "" } else { "    (void)buf;\n" },
        );
        let outs: String = (layout.outputs.iter().enumerate())
            .map(|(i, &k)| format!("    out[{i}] = {};\n", Self::at(&layout, k)))
            .collect();
        let _ = write!(
            c,
            "/* Copies the outputs' values ({upper}_OUTPUTS numbers) into out. */\n\
             void {name}_outputs(const real *buf, real *out) {{\n{}{outs}}}\n",
            if outs.contains("buf") {
                ""
            } else {
                "    (void)buf;\n"
            },
        );
        // (A header declaring a function the source does not define would not link.)
        debug_assert!(h.contains(&format!("{name}_forward(")));
        (h, c)
    }

    /// The body of `name_forward`: one line per needed node, one loop per layer.
    fn inference_forward(&self, layout: &Layout, r: &mut Real) -> String {
        let (leaves, n) = (self.listing.leaves, self.nodes());
        let at = |k: usize| Self::at(layout, k);
        let no_consts = crate::rules::NO_CONSTS;
        let mut body = String::new();
        let (mut has_layer, mut has_fused) = (false, false);
        let mut k = leaves;
        while k < n {
            if layout.place[k].is_none() {
                k += 1;
                continue;
            }
            let ins = &self.listing.inner[k - leaves];
            // A layer: its sums' pieces as many each and one after another, its values
            // side by side.
            let layer = self.layers.iter().find(|l| l.plan.first == k).filter(|l| {
                let w = l.plan.width;
                let per = layout.of_sum[k].len();
                (0..w).all(|j| {
                    let s = &layout.of_sum[k + j];
                    s.len() == per
                        && s.start == layout.of_sum[k].start + j * per
                        && layout.place[k + j] == layout.place[k].map(|p| p.plus(j))
                })
            });
            if let (Some(l), Instruction::Dot(op, _)) = (layer, ins) {
                has_layer = true;
                let (w, per, p0) = (l.plan.width, layout.of_sum[k].len(), layout.of_sum[k].start);
                let sum =
                    format!("dot(buf, pieces + {p0} + j * {per}, pieces + {p0} + (j + 1) * {per})");
                let value = match op {
                    Some(op) => r.forward(*op, "s", "", no_consts),
                    None => "s".to_owned(),
                };
                has_fused = true;
                let out = at(k).replace(']', " + j]");
                let _ = writeln!(
                    body,
                    "    /* nodes {k}..{}: a layer of {w} sums */\n    \
                     for (j = 0; j < {w}; j++) {{\n        \
                     s = {sum};\n        \
                     {out} = {value};\n    \
                     }}",
                    k + w
                );
                k += w;
                continue;
            }
            let line = match ins {
                Instruction::Unary(op, a, c) => {
                    format!("{} = {};", at(k), r.forward(*op, &at(*a), "", *c))
                }
                Instruction::Binary(op, a, b) => format!(
                    "{} = {};",
                    at(k),
                    r.forward(*op, &at(*a), &at(*b), [0.0; 2])
                ),
                Instruction::Dot(op, _) => {
                    let p = &layout.of_sum[k];
                    let sum = format!("dot(buf, pieces + {}, pieces + {})", p.start, p.end);
                    let sum = if p.is_empty() { r.num(0.0) } else { sum };
                    match op {
                        None => format!("{} = {sum};", at(k)),
                        Some(op) => {
                            has_fused = true;
                            let value = r.forward(*op, "s", "", no_consts);
                            format!("s = {sum};\n    {} = {value};", at(k))
                        }
                    }
                }
                Instruction::Custom(_) => unreachable!("custom ops are refused before emitting"),
            };
            let _ = writeln!(body, "    {line}{}", self.label(k));
            k += 1;
        }
        let mut decls = String::new();
        if has_layer {
            decls += "    unsigned long j;\n";
        }
        if has_fused {
            decls += "    real s;\n";
        }
        decls + &body
    }
}

/// A place as `(offset, 1 if in flash)`.
fn split(p: Place) -> (usize, usize) {
    match p {
        Place::Flash(i) => (i, 1),
        Place::Ram(i) => (i, 0),
    }
}
