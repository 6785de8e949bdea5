//! The C source: the tables (runs, spans, initial values) and the functions, forward
//! and backward written instruction by instruction.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::listing::{Instruction, Listing};
use super::ops::{Precision, Real};
use super::plan::{self, Layer, Offsets, Role, Span};

/// Everything the header and the source are written from.
pub(super) struct Program<'a> {
    pub(super) listing: &'a Listing,
    pub(super) roles: &'a [Role],
    /// The input groups' names.
    pub(super) groups: Vec<String>,
    /// For each input group, where its numbers go.
    pub(super) inputs: Vec<Vec<Span>>,
    /// Where the parameters are, by position.
    pub(super) params: Vec<Span>,
    pub(super) param_count: usize,
    /// The leaves' values now.
    pub(super) data: &'a [f64],
    pub(super) layers: Vec<Layer>,
    /// Which nodes need a gradient.
    pub(super) needs: Vec<bool>,
    /// Which factors of each run need gradients (1: the first, 2: the second).
    pub(super) run_grads: Vec<u8>,
    pub(super) at: Offsets,
    pub(super) precision: Precision,
}

impl<'a> Program<'a> {
    pub(super) fn new(
        listing: &'a Listing,
        roles: &'a [Role],
        groups: &[&str],
        data: &'a [f64],
        precision: Precision,
    ) -> Program<'a> {
        let inputs = (0..groups.len())
            .map(|g| {
                let mut pairs: Vec<(usize, usize)> = (roles.iter().enumerate())
                    .filter_map(|(k, r)| match *r {
                        Role::Input { group, pos } if group == g => Some((pos, k)),
                        _ => None,
                    })
                    .collect();
                pairs.sort_unstable();
                plan::spans(pairs)
            })
            .collect();
        let mut params: Vec<(usize, usize)> = (roles.iter().enumerate())
            .filter_map(|(k, r)| match *r {
                Role::Param(pos) => Some((pos, k)),
                _ => None,
            })
            .collect();
        params.sort_unstable();
        let param_count = params.len();
        let (needs, run_grads) = plan::gradients(listing, roles);
        let nodes = listing.leaves + listing.inner.len();
        Program {
            listing,
            roles,
            groups: groups.iter().map(|g| g.to_string()).collect(),
            inputs,
            params: plan::spans(params),
            param_count,
            data,
            layers: plan::layers(listing),
            needs,
            run_grads,
            at: Offsets::new(nodes, param_count),
            precision,
        }
    }

    /// How many nodes: values at `0..nodes()`.
    pub(super) fn nodes(&self) -> usize {
        self.at.nodes
    }

    /// The root's node index.
    pub(super) fn root(&self) -> usize {
        self.nodes() - 1
    }

    /// `name.c`.
    pub(super) fn source(&self, name: &str) -> String {
        let mut r = Real::new(self.precision);
        let upper = name.to_uppercase();
        let mut uses = Uses::default();
        let forward = self.forward(&mut r, name, &mut uses);
        let backward = self.backward(&mut r, name, &upper, &mut uses);
        let updates = self.updates(&mut r, name, &upper);
        let l = self.listing;
        let kept = super::kept_calls();
        let mut c = format!(
            "/* {name}.c: written by micrograd::codegen from a compiled tape of {} nodes\n \
             * ({} leaves: {} parameters, {} inputs; {} inner nodes; {} runs of products;\n \
             * {} layers). What the functions do and the buffer's layout: {name}.h.\n \
             *\n \
             * Every op is computed with the formulas of its Rust rule (src/rules/, src/ops/),\n \
             * in the tape's order: compiled with -ffp-contract=off, -fno-builtin-<f> for\n \
             * libm's {kept}, and without -ffast-math\n \
             * (micrograd::codegen::C_FLAGS), the double version gives the tape's numbers\n \
             * bit for bit.\n \
             */\n\
             #include <math.h>\n\
             #include \"{name}.h\"\n\n\
             typedef {name}_real real;\n\n\
             /* restrict: the values and the gradients are different parts of the buffer */\n\
             #ifdef __cplusplus\n#define RESTRICT __restrict\n#else\n#define RESTRICT restrict\n#endif\n\n",
            self.nodes(),
            l.leaves,
            self.param_count,
            self.inputs.iter().flatten().map(|s| s.len).sum::<usize>(),
            l.inner.len(),
            l.runs.len(),
            self.layers.len(),
        );
        c += &self.tables();
        for &function in &r.c_functions {
            c += &r.c_function_source(function);
            c += "\n";
        }
        c += &self.kernels(&r, &uses);
        c += &self.setup(name, &upper);
        c += &forward;
        c += &backward;
        c += &updates;
        c += &self.initial_values(&r, name, &upper);
        c
    }

    /// The runs and spans tables.
    fn tables(&self) -> String {
        let mut c = String::from(
            "/* The terms of the sums: run r adds d[x + i] * d[y + i] for i < len. grads\n   \
             says which factors need their gradient (1: the x's, 2: the y's). */\n\
             typedef struct { unsigned long x, y, len, grads; } run;\n\
             /* The caller's numbers pos .. pos + len are the buffer's at .. at + len. */\n\
             typedef struct { unsigned long pos, at, len; } span;\n\n",
        );
        let runs = &self.listing.runs;
        if !runs.is_empty() {
            let _ = writeln!(c, "static const run runs[{}] = {{", runs.len());
            // One line per sum: its runs, and its node.
            let mut owner: BTreeMap<usize, usize> = BTreeMap::new();
            for (i, ins) in self.listing.inner.iter().enumerate() {
                if let Instruction::Dot(_, rr) = ins {
                    owner.insert(rr.start, self.listing.leaves + i);
                }
            }
            let ends: Vec<usize> = owner.keys().skip(1).copied().chain([runs.len()]).collect();
            for ((&start, &node), end) in owner.iter().zip(ends) {
                let items: Vec<String> = (start..end)
                    .map(|i| {
                        let t = runs[i];
                        format!("{{{}, {}, {}, {}}}", t.x, t.y, t.len, self.run_grads[i])
                    })
                    .collect();
                let _ = writeln!(c, "    {}, /* {start}: node {node} */", items.join(", "));
            }
            c += "};\n";
        }
        let mut spans = |name: &str, what: &str, s: &[Span]| {
            if s.len() > SPANS_INLINE {
                let _ = writeln!(
                    c,
                    "/* {what} */\nstatic const span {name}[{}] = {{",
                    s.len()
                );
                for chunk in s.chunks(4) {
                    let items: Vec<String> = (chunk.iter())
                        .map(|s| format!("{{{}, {}, {}}}", s.pos, s.at, s.len))
                        .collect();
                    let _ = writeln!(c, "    {},", items.join(", "));
                }
                c += "};\n";
            }
        };
        spans(
            "param_spans",
            "Where the parameters are, in order.",
            &self.params,
        );
        // (Named by the group's number: a name could make `input_spans_<group>` one of
        // the functions, `NAME_<suffix>`.)
        for (i, (g, s)) in self.groups.iter().zip(&self.inputs).enumerate() {
            spans(
                &format!("input_spans_{i}"),
                &format!("Where the inputs `{g}` go."),
                s,
            );
        }
        c + "\n"
    }

    /// The loops every sum and layer runs: dot, its chain rule, layers.
    fn kernels(&self, r: &Real, uses: &Uses) -> String {
        let zero = r.num(0.0);
        let dot = format!(
            "/* sum(d[x] * d[y] for each term of runs r .. end), left to right from 0, as\n   \
             the tape and Python's sum() add a neuron's terms */\n\
             static real dot(const real *d, const run *r, const run *end) {{\n    \
             real acc = {zero};\n    \
             unsigned long i;\n    \
             for (; r != end; r++)\n        \
             for (i = 0; i < r->len; i++) acc += d[r->x + i] * d[r->y + i];\n    \
             return acc;\n}}\n\n"
        );
        let dot_backward = format!(
            "/* g[i] += f[i] * G for i < n: one half of the chain rule through a run of\n   \
             products (the tape's add_scaled), four at a time so that the compiler may use\n   \
             vector instructions (each g[i] still gets the one same operation). */\n\
             static void add_scaled(real *RESTRICT g, const real *RESTRICT f, unsigned long n,\n                       \
             real G) {{\n    \
             unsigned long i = 0;\n    \
             for (; i + 4 <= n; i += 4) {{\n        \
             g[i] += f[i] * G;\n        \
             g[i + 1] += f[i + 1] * G;\n        \
             g[i + 2] += f[i + 2] * G;\n        \
             g[i + 3] += f[i + 3] * G;\n    \
             }}\n    \
             for (; i < n; i++) g[i] += f[i] * G;\n}}\n\n\
             /* The chain rule through a sum whose gradient is G: each term x * y gives x the\n   \
             gradient y * G and y the gradient x * G (Python's `self.grad += other.data *\n   \
             out.grad`), run by run, the x's before the y's. Nothing flows through G = 0. */\n\
             static void dot_backward(const real *RESTRICT d, real *RESTRICT g, const run *r,\n                         \
             const run *end, real G) {{\n    \
             if (G == {zero}) return;\n    \
             for (; r != end; r++) {{\n        \
             if (r->grads & 1) add_scaled(g + r->x, d + r->y, r->len, G);\n        \
             if (r->grads & 2) add_scaled(g + r->y, d + r->x, r->len, G);\n    \
             }}\n}}\n\n"
        );
        let mut c = String::new();
        if uses.dot {
            c += &dot;
        }
        if uses.dot_backward {
            c += &dot_backward;
        }
        let widths: std::collections::BTreeSet<usize> =
            self.layers.iter().map(|l| l.plan.width).collect();
        for w in widths {
            let acc = |f: &dyn Fn(usize) -> String, sep: &str| {
                (0..w)
                    .collect::<Vec<_>>()
                    .chunks(4)
                    .map(|c| c.iter().map(|&j| f(j)).collect::<Vec<_>>().join(sep))
                    .collect::<Vec<_>>()
            };
            let decls = acc(&|j| format!("a{j} = {zero}"), ", ").join(";\n    real ");
            let weights = acc(&|j| format!("*w{j} = d + r[{j} * n + i].x"), ", ")
                .join(";\n        const real ");
            let terms = acc(&|j| format!("a{j} += w{j}[t] * x;"), " ").join("\n            ");
            let outs = acc(&|j| format!("out[{j}] = a{j};"), " ").join("\n    ");
            let _ = write!(
                c,
                "/* A layer of {w} sums of n runs each (sum j's runs are r + j n .. r + (j + 1) n),\n   \
                 over the same inputs (the y's of the first sum's runs), each with its own\n   \
                 weights (the x's of its runs): the {w} sums a0 .. a{} advance side by side,\n   \
                 each still left to right from 0 (the tape's layer_sums); written out, so\n   \
                 that they stay in registers. */\n\
                 static void layer{w}(const real *RESTRICT d, const run *r, unsigned long n,\n                    \
                 real *RESTRICT out) {{\n    \
                 real {decls};\n    \
                 unsigned long i, t;\n    \
                 for (i = 0; i < n; i++) {{\n        \
                 const real *y = d + r[i].y;\n        \
                 const real {weights};\n        \
                 for (t = 0; t < r[i].len; t++) {{\n            \
                 real x = y[t];\n            \
                 {terms}\n        \
                 }}\n    \
                 }}\n    \
                 {outs}\n}}\n\n",
                w - 1
            );
            if uses.layer_backward {
                let _ = write!(
                    c,
                "/* The chain rule through a layer of {w} sums of n runs each (sum j's runs\n   \
                 are r + j n .. r + (j + 1) n), given their gradients G: the last sum first,\n   \
                 as the tape's layer_backward. */\n\
                 static void layer{w}_backward(const real *RESTRICT d, real *RESTRICT g, const run *r,\n                             \
                 unsigned long n, const real G[{w}]) {{\n    \
                 unsigned long j;\n    \
                 for (j = {w}; j-- > 0;) dot_backward(d, g, r + j * n, r + (j + 1) * n, G[j]);\n}}\n\n"
                );
            }
        }
        c
    }
}

/// A table of spans is written when there are more than this many; else one loop each.
pub(super) const SPANS_INLINE: usize = 4;

/// Which kernels the forward and backward passes call (the others are not written: an
/// unused `static` function is a warning).
#[derive(Default)]
struct Uses {
    dot: bool,
    dot_backward: bool,
    layer_backward: bool,
}

impl Program<'_> {
    /// The layer that starts at node `k`, if any.
    fn layer_at(&self, k: usize) -> Option<&Layer> {
        self.layers.iter().find(|l| l.plan.first == k)
    }

    /// `runs + s, runs + e` for the runs `s..e`.
    fn run_range(range: &std::ops::Range<usize>) -> String {
        format!("runs + {}, runs + {}", range.start, range.end)
    }

    /// How many terms the runs `range` have.
    fn terms(&self, range: &std::ops::Range<usize>) -> usize {
        self.listing.runs[range.clone()].iter().map(|t| t.len).sum()
    }

    /// ` /* "label" */` for a labelled node.
    pub(super) fn label(&self, k: usize) -> String {
        match self.listing.labels.iter().find(|(j, _)| *j == k) {
            Some((_, l)) => format!(" /* {:?} */", l.replace("*/", "* /").replace("/*", "/ *")),
            None => String::new(),
        }
    }

    /// `name_forward`: every inner node in order.
    fn forward(&self, r: &mut Real, lower: &str, uses: &mut Uses) -> String {
        let mut body = String::new();
        let (mut has_layer, mut has_fused) = (false, false);
        let n = self.nodes();
        let mut k = self.listing.leaves;
        while k < n {
            if let Some(layer) = self.layer_at(k) {
                has_layer = true;
                let (w, first) = (layer.plan.width, layer.plan.first);
                let runs = layer.first_run..layer.first_run + layer.per_sum;
                let what = match layer.op {
                    Some(op) => format!("{}(sum)s", op.name()),
                    None => "sums".to_owned(),
                };
                let _ = writeln!(
                    body,
                    "    /* nodes {first}..{}: a layer of {w} {what} of {} terms */\n    \
                     layer{w}(d, runs + {}, {}, acc);",
                    first + w,
                    self.terms(&runs),
                    layer.first_run,
                    layer.per_sum
                );
                let value = match layer.op {
                    Some(op) => r.forward(op, "acc[j]", "", crate::rules::NO_CONSTS),
                    None => "acc[j]".to_owned(),
                };
                let _ = writeln!(
                    body,
                    "    for (j = 0; j < {w}; j++) d[{first} + j] = {value};"
                );
                k += w;
                continue;
            }
            let line = match &self.listing.inner[k - self.listing.leaves] {
                Instruction::Unary(op, a, c) => {
                    format!("d[{k}] = {};", r.forward(*op, &format!("d[{a}]"), "", *c))
                }
                Instruction::Binary(op, a, b) => format!(
                    "d[{k}] = {};",
                    r.forward(*op, &format!("d[{a}]"), &format!("d[{b}]"), [0.0; 2])
                ),
                Instruction::Dot(op, runs) => {
                    uses.dot = true;
                    let dot = format!("dot(d, {})", Self::run_range(runs));
                    let terms = self.terms(runs);
                    match op {
                        None => format!("d[{k}] = {dot}; /* sum of {terms} terms */"),
                        Some(op) => {
                            has_fused = true;
                            let value = r.forward(*op, "s", "", crate::rules::NO_CONSTS);
                            format!(
                                "s = {dot}; /* {} of a sum of {terms} terms: */\n    d[{k}] = {value};",
                                op.name()
                            )
                        }
                    }
                }
                Instruction::Custom(_) => unreachable!("custom ops are refused before emitting"),
            };
            let _ = writeln!(body, "    {line}{}", self.label(k));
            k += 1;
        }
        let mut decls = String::from("    real *d = buf;\n");
        if has_layer {
            let w = self.layers.iter().map(|l| l.plan.width).max().unwrap_or(0);
            let _ = writeln!(decls, "    real acc[{w}];\n    unsigned long j;");
        }
        if has_fused {
            decls += "    real s;\n";
        }
        format!(
            "/* The forward pass: every inner node from its operands, in the tape's order.\n   \
             Returns the root's value. */\n\
             real {lower}_forward(real *buf) {{\n{decls}{body}    return d[{root}];\n}}\n\n",
            root = self.root()
        )
    }

    /// `name_backward`: the chain rule, last node first.
    fn backward(&self, r: &mut Real, lower: &str, upper: &str, uses: &mut Uses) -> String {
        let mut body = String::new();
        let (mut has_layer, mut reads_d) = (false, false);
        let leaves = self.listing.leaves;
        let mut k = self.nodes();
        let zero = r.num(0.0);
        while k > leaves {
            k -= 1;
            if !self.needs[k] {
                continue;
            }
            let layer = self
                .layers
                .iter()
                .find(|l| l.plan.first + l.plan.width - 1 == k);
            if let Some(layer) = layer {
                has_layer = true;
                (uses.dot_backward, uses.layer_backward) = (true, true);
                let (w, first) = (layer.plan.width, layer.plan.first);
                k = first;
                let grad = match layer.op {
                    Some(op) => {
                        let out = format!("d[{first} + j]");
                        let (local, _) = r.local_grads(op, (&zero, "", &out), [0.0; 2]);
                        format!("{local} * g[{first} + j]")
                    }
                    None => format!("g[{first} + j]"),
                };
                let _ = writeln!(
                    body,
                    "    /* nodes {first}..{}: the layer's sums */\n    \
                     for (j = 0; j < {w}; j++) G[j] = {grad};\n    \
                     layer{w}_backward(d, g, runs + {}, {}, G);",
                    first + w,
                    layer.first_run,
                    layer.per_sum
                );
                continue;
            }
            let gk = format!("g[{k}]");
            let mut lines = Vec::new();
            match &self.listing.inner[k - leaves] {
                Instruction::Unary(op, a, c) => {
                    let (da, _) =
                        r.local_grads(*op, (&format!("d[{a}]"), "", &format!("d[{k}]")), *c);
                    lines.push(format!("g[{a}] += {da} * {gk};"));
                }
                Instruction::Binary(op, a, b) => {
                    let (da, db) = r.local_grads(
                        *op,
                        (&format!("d[{a}]"), &format!("d[{b}]"), &format!("d[{k}]")),
                        [0.0; 2],
                    );
                    if self.needs[*a] {
                        lines.push(format!("g[{a}] += {da} * {gk};"));
                    }
                    if self.needs[*b] {
                        let db = db.unwrap_or_else(|| zero.clone());
                        lines.push(format!("g[{b}] += {db} * {gk};"));
                    }
                }
                Instruction::Dot(op, runs) => {
                    uses.dot_backward = true;
                    let grad = match op {
                        Some(op) => {
                            let (local, _) =
                                r.local_grads(*op, (&zero, "", &format!("d[{k}]")), [0.0; 2]);
                            format!("{local} * {gk}")
                        }
                        None => gk.clone(),
                    };
                    lines.push(format!(
                        "dot_backward(d, g, {}, {grad});",
                        Self::run_range(runs)
                    ));
                }
                Instruction::Custom(_) => unreachable!("custom ops are refused before emitting"),
            }
            for line in lines {
                reads_d |= line.contains("d[") || line.contains("(d, ");
                let _ = writeln!(body, "    {line}{}", self.label(k));
            }
        }
        let mut decls = String::from("    const real *d = buf;\n    real *g = buf + ");
        let _ = writeln!(decls, "{upper}_GRAD;\n    unsigned long k;");
        if !reads_d && !has_layer {
            // (No derivative here reads a value: d + d, x * 2.0.)
            decls += "    (void)d;\n";
        }
        if has_layer {
            let w = self.layers.iter().map(|l| l.plan.width).max().unwrap_or(0);
            let _ = writeln!(decls, "    real G[{w}];\n    unsigned long j;");
        }
        format!(
            "/* The backward pass: d root / d node, last node first, each node adding\n   \
             local derivative * its gradient into its operands' (the parameters' add up\n   \
             over calls, until an update). Gradients no parameter needs are skipped. */\n\
             void {lower}_backward(real *buf) {{\n{decls}    \
             for (k = {leaves}; k < {n}; k++) g[k] = {zero};\n    \
             g[{root}] = {one};\n{body}}}\n\n",
            n = self.nodes(),
            root = self.root(),
            one = r.num(1.0)
        )
    }
}

impl Program<'_> {
    /// Loops that run `stmt(position, buffer index)` over `spans` (through the table
    /// `table` when there are many).
    pub(super) fn span_loops(
        &self,
        table: &str,
        spans: &[Span],
        stmt: impl Fn(&str, &str) -> String,
    ) -> String {
        // (Several statements are separated by "; ".)
        let body = |pos: &str, at: &str, indent: &str| -> String {
            (stmt(pos, at).split("; "))
                .map(|s| format!("{indent}{};\n", s.trim_end_matches(';')))
                .collect()
        };
        if spans.len() > SPANS_INLINE {
            return format!(
                "    for (s = {table}; s != {table} + {}; s++) {{\n        \
                 for (i = 0; i < s->len; i++) {{\n{}        }}\n    }}\n",
                spans.len(),
                body("s->pos + i", "s->at + i", "            ")
            );
        }
        (spans.iter())
            .map(|s| match s.len {
                1 => body(&s.pos.to_string(), &s.at.to_string(), "    "),
                len => format!(
                    "    for (i = 0; i < {len}; i++) {{\n{}    }}\n",
                    body(
                        &format!("{} + i", s.pos),
                        &format!("{} + i", s.at),
                        "        "
                    )
                ),
            })
            .collect()
    }

    /// The declarations [`span_loops`](Self::span_loops) needs.
    pub(super) fn span_decls(spans: &[Span]) -> &'static str {
        match spans.len() {
            _ if spans.iter().all(|s| s.len == 1) && spans.len() <= SPANS_INLINE => "",
            n if n > SPANS_INLINE => "    unsigned long i;\n    const span *s;\n",
            _ => "    unsigned long i;\n",
        }
    }

    /// The input setters, `outputs`, `get_params`, `set_params`.
    fn setup(&self, lower: &str, upper: &str) -> String {
        let mut c = String::new();
        for (i, (group, spans)) in self.groups.iter().zip(&self.inputs).enumerate() {
            let _ = write!(
                c,
                "/* Writes the {} numbers of `{group}` into their leaves. */\n\
                 void {lower}_set_{group}(real *buf, const real *values) {{\n{}{}}}\n\n",
                spans.iter().map(|s| s.len).sum::<usize>(),
                Self::span_decls(spans),
                if spans.is_empty() {
                    "    (void)buf;\n    (void)values;\n".to_owned()
                } else {
                    self.span_loops(&format!("input_spans_{i}"), spans, |pos, at| {
                        format!("buf[{at}] = values[{pos}];")
                    })
                },
            );
        }
        let outputs: String = (self.listing.outputs.iter().enumerate())
            .map(|(i, k)| format!("    out[{i}] = buf[{k}];\n"))
            .collect();
        let _ = write!(
            c,
            "/* Copies the outputs' values ({upper}_OUTPUTS numbers) into out. */\n\
             void {lower}_outputs(const real *buf, real *out) {{\n{}}}\n\n",
            if outputs.is_empty() {
                "    (void)buf;\n    (void)out;\n".to_owned()
            } else {
                outputs
            }
        );
        let (decls, params) = (Self::span_decls(&self.params), &self.params);
        let _ = write!(
            c,
            "/* Copies the parameters ({upper}_PARAMS numbers, in order) into params. */\n\
             void {lower}_get_params(const real *buf, real *params) {{\n{decls}{}{}}}\n\n\
             /* Copies the parameters' gradients ({upper}_PARAMS numbers, in order) into grads. */\n\
             void {lower}_get_grads(const real *buf, real *grads) {{\n{decls}{}{}}}\n\n\
             /* Writes the parameters ({upper}_PARAMS numbers, in order) from params. */\n\
             void {lower}_set_params(real *buf, const real *params) {{\n{decls}{}{}}}\n\n",
            self.span_loops("param_spans", params, |pos, at| format!("params[{pos}] = buf[{at}];")),
            if params.is_empty() { "    (void)buf;\n    (void)params;\n" } else { "" },
            self.span_loops("param_spans", params, |pos, at| format!("grads[{pos}] = buf[{upper}_GRAD + {at}];")),
            if params.is_empty() { "    (void)buf;\n    (void)grads;\n" } else { "" },
            self.span_loops("param_spans", params, |pos, at| format!("buf[{at}] = params[{pos}];")),
            if params.is_empty() { "    (void)buf;\n    (void)params;\n" } else { "" },
        );
        c
    }

    /// `zero_grad`, `sgd` and `adam`.
    fn updates(&self, r: &mut Real, lower: &str, upper: &str) -> String {
        let (zero, one) = (r.num(0.0), r.num(1.0));
        let params = &self.params;
        let decls = format!(
            "    real *d = buf, *g = buf + {upper}_GRAD;\n{}",
            Self::span_decls(params)
        );
        let mut c = format!(
            "/* Sets the parameters' gradients to 0. */\n\
             void {lower}_zero_grad(real *buf) {{\n    real *g = buf + {upper}_GRAD;\n{}{}}}\n\n",
            Self::span_decls(params),
            if params.is_empty() {
                "    (void)g;\n".to_owned()
            } else {
                self.span_loops("param_spans", params, |_, at| format!("g[{at}] = {zero};"))
            }
        );
        let _ = write!(
            c,
            "/* One step of gradient descent, p = p - lr * grad (Python's `p.data -=\n   \
             learning_rate * p.grad`), for every parameter; then the gradients are 0. */\n\
             void {lower}_sgd(real *buf, real lr) {{\n{decls}{}{}}}\n\n",
            self.span_loops("param_spans", params, |_, at| format!(
                "d[{at}] = d[{at}] - lr * g[{at}]; g[{at}] = {zero};"
            )),
            if params.is_empty() {
                "    (void)d;\n    (void)g;\n    (void)lr;\n"
            } else {
                ""
            },
        );
        r.c_functions.insert(super::ops::CFunction::Powi);
        if !params.is_empty() {
            // (Written out twice, so that gcc -O2 computes two parameters per vector.)
            let step = |i: &str| {
                format!(
                    "        m[{i}] = beta1 * m[{i}] + ({one} - beta1) * g[{i}];\n        \
                     v[{i}] = beta2 * v[{i}] + ({one} - beta2) * g[{i}] * g[{i}];\n        \
                     p[{i}] = p[{i}] - lr * (m[{i}] / c1) / ({} + eps);\n        \
                     g[{i}] = {zero};\n",
                    r.call("sqrt", &format!("v[{i}] / c2"))
                )
            };
            let _ = write!(
                c,
                "/* Adam's step for n parameters p (gradients g, moments m and v; c1, c2 the\n   \
                 corrections), two at a time so that the compiler may use vector\n   \
                 instructions (each number gets the same operations; gcc does with\n   \
                 -fno-math-errno, which lets sqrt be one instruction). */\n\
                 static void adam_update(real *RESTRICT p, real *RESTRICT g, real *RESTRICT m,\n                        \
                 real *RESTRICT v, unsigned long n, real lr, real beta1, real beta2,\n                        \
                 real eps, real c1, real c2) {{\n    \
                 unsigned long i = 0;\n    \
                 for (; i + 2 <= n; i += 2) {{\n{}{}    }}\n    \
                 for (; i < n; i++) {{\n{}    }}\n}}\n\n",
                step("i"),
                step("i + 1"),
                step("i")
            );
        }
        let args = "lr, beta1, beta2, eps, c1, c2";
        let adam: String = if params.len() > SPANS_INLINE {
            format!(
                "    for (s = param_spans; s != param_spans + {}; s++)\n        \
                 adam_update(d + s->at, g + s->at, m + s->pos, v + s->pos, s->len, {args});\n",
                params.len()
            )
        } else {
            (params.iter())
                .map(|s| {
                    let (at, pos, len) = (s.at, s.pos, s.len);
                    format!("    adam_update(d + {at}, g + {at}, m + {pos}, v + {pos}, {len}, {args});\n")
                })
                .collect()
        };
        let decls = if params.len() > SPANS_INLINE {
            "    const span *s;\n"
        } else {
            ""
        };
        let _ = write!(
            c,
            "/* One step of Adam (optim/adam.rs, bit for bit): m and v, the moving averages\n   \
             of the gradient and of its square, corrected for their start at 0, then\n   \
             p = p - lr * m^ / (sqrt(v^) + eps); then the gradients are 0. The step count\n   \
             is kept in the buffer. (The Rust's usual beta1 = 0.9, beta2 = 0.999,\n   \
             eps = 1e-8.) */\n\
             void {lower}_adam(real *buf, real lr, real beta1, real beta2, real eps) {{\n    \
             real *d = buf, *g = buf + {upper}_GRAD;\n{decls}    \
             real *m = buf + {upper}_ADAM_M, *v = buf + {upper}_ADAM_V;\n    \
             long t = (long)buf[{upper}_ADAM_T] + 1;\n    \
             real c1 = {one} - powi(beta1, t), c2 = {one} - powi(beta2, t);\n    \
             buf[{upper}_ADAM_T] = (real)t;\n{adam}{}}}\n\n",
            if params.is_empty() {
                "    (void)d;\n    (void)g;\n    (void)m;\n    (void)v;\n    (void)lr;\n    (void)eps;\n    (void)c1;\n    (void)c2;\n"
            } else {
                ""
            },
        );
        c
    }

    /// The leaves' values, and `init`, which writes them.
    fn initial_values(&self, r: &Real, lower: &str, upper: &str) -> String {
        let leaves = self.listing.leaves;
        let mut c = format!(
            "/* The leaves' values when the C was written (node 0 .. {leaves}: parameters,\n   \
             constants, and the inputs' values then). */\n\
             static const real initial[{leaves}] = {{\n"
        );
        for chunk in self.data.chunks(4) {
            let items: Vec<String> = chunk.iter().map(|&x| r.num(x)).collect();
            let _ = writeln!(c, "    {},", items.join(", "));
        }
        let _ = write!(
            c,
            "}};\n\n\
             /* Makes the first {upper}_SGD_BUFFER_LEN numbers of buf ready: the leaves'\n   \
             values above, 1 for the sums' constant, every gradient 0. Enough for sgd. */\n\
             void {lower}_init_sgd(real *buf) {{\n    \
             unsigned long k;\n    \
             for (k = 0; k < {upper}_SGD_BUFFER_LEN; k++) buf[k] = {zero};\n    \
             for (k = 0; k < {leaves}; k++) buf[k] = initial[k];\n    \
             buf[{upper}_NODES] = {one};\n}}\n\n\
             /* Makes the whole buffer ready: init_sgd, and Adam's state 0. */\n\
             void {lower}_init(real *buf) {{\n    \
             unsigned long k;\n    \
             {lower}_init_sgd(buf);\n    \
             for (k = {upper}_SGD_BUFFER_LEN; k < {upper}_BUFFER_LEN; k++) buf[k] = {zero};\n}}\n",
            zero = r.num(0.0),
            one = r.num(1.0),
        );
        c
    }
}
