//! Drawing the graph in Graphviz DOT, as micrograd's `trace_graph.ipynb` does.

use std::fmt::Write;

use crate::address::{AddressMap, AddressSet};
use crate::engine::value::{Node, Value};
use crate::fast::{neuron_act, Act};

/// Which way a drawing's arrows run (Graphviz's `rankdir`), as `draw_dot`'s
/// `rankdir='LR'` argument in micrograd's `trace_graph.ipynb`, which accepts exactly
/// these two.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RankDir {
    /// Left to right: inputs on the left, the result on the right (`rankdir='LR'`, the
    /// notebook's default).
    #[default]
    LR,
    /// Top to bottom: inputs at the top, the result at the bottom (`rankdir='TB'`).
    TB,
}

impl RankDir {
    /// The Graphviz spelling: `"LR"` or `"TB"`.
    pub fn as_str(self) -> &'static str {
        match self {
            RankDir::LR => "LR",
            RankDir::TB => "TB",
        }
    }
}

/// How [`Value::to_dot_with`] draws a graph: its [`RankDir`], and whether each neuron
/// node ([`Value::neuron`]) is drawn as the one node it is here or as the `*` and `+`
/// nodes Python's `Neuron.__call__` builds (same numbers). A [`RankDir`] converts into
/// it, so `to_dot_with(RankDir::TB)` keeps working.
///
/// ```
/// use micrograd::{nn::Activation, view::{DotOptions, RankDir}, Value};
/// let (b, w, x) = (Value::new(0.5), [Value::new(2.0)], [Value::new(3.0)]);
/// let y = Value::neuron(&b, &w, &x, Activation::Relu)?;
/// assert!(y.to_dot().contains("label=\"relu neuron\""));
/// let python = y.to_dot_with(DotOptions::new().rankdir(RankDir::TB).as_python());
/// assert!(python.contains("label=\"*\"") && python.contains("label=\"relu\""));
/// # Ok::<(), micrograd::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DotOptions {
    rankdir: RankDir,
    as_python: bool,
}

impl DotOptions {
    /// Left to right, neurons as one node each (what [`Value::to_dot`] draws).
    pub fn new() -> DotOptions {
        DotOptions::default()
    }

    /// The direction of the arrows.
    pub fn rankdir(self, rankdir: RankDir) -> DotOptions {
        DotOptions { rankdir, ..self }
    }

    /// Draws each neuron node as Python's graph of it: a `*` node per input, a `+` node
    /// per term (`b + w0*x0`, then `+ w1*x1`, ...) and the activation, 2n + 1 nodes for n
    /// inputs, with the values and (after `backward()`) the gradients Python's nodes
    /// have. Every other node is drawn as it is.
    pub fn as_python(self) -> DotOptions {
        DotOptions {
            as_python: true,
            ..self
        }
    }
}

impl From<RankDir> for DotOptions {
    fn from(rankdir: RankDir) -> DotOptions {
        DotOptions::new().rankdir(rankdir)
    }
}

impl Value {
    /// The graph under this value in Graphviz DOT, laid out left to right as in
    /// micrograd's `trace_graph.ipynb`: a record `{ label | data 4.0000 | grad 1.0000 }`
    /// for each value (without the label part when it has none) and a small node for
    /// each op (showing `powf`'s exponent as Python's `_op` does: `**2`), with edges from
    /// inputs to the op to its result. An input used twice (`a * a`) gets two edges.
    /// Labels and custom op names are the user's text: they are escaped, so any text
    /// (quotes, backslashes, `{ | }`, line breaks) gives a file Graphviz reads, and is
    /// drawn as written: `&lt;` as those four characters, a NUL or another control
    /// character as `{:?}` writes it (`\0`, `\u{1b}`), and a text longer than the
    /// 16,384 bytes Graphviz reads in one quoted string written as pieces joined by
    /// DOT's `+`.
    ///
    /// Render it with `dot -Tsvg graph.dot -o graph.svg`.
    ///
    /// ```
    /// use micrograd::Value;
    /// let a = Value::new(2.0).with_label("a");
    /// let y = (&a * 2.0).with_label("y");
    /// let dot = y.to_dot();
    /// assert!(dot.starts_with("digraph"));
    /// assert!(dot.contains("rankdir=LR"));
    /// assert!(dot.contains("{ y | data 4.0000 | grad 0.0000 }"));
    /// assert!(dot.contains("label=\"*\""));
    /// assert!(a.powf(2.0).to_dot().contains("label=\"**2\""));   // Python's `_op` '**2'
    /// ```
    pub fn to_dot(&self) -> String {
        self.to_dot_with(RankDir::LR)
    }

    /// [`to_dot`](Value::to_dot) with the layout direction of `trace_graph.ipynb`'s
    /// `draw_dot(root, rankdir='TB')` ([`RankDir::TB`] draws inputs at the top), or
    /// with [`DotOptions`]: [`as_python`](DotOptions::as_python) draws each neuron as the
    /// products and sums Python builds for it.
    ///
    /// ```
    /// use micrograd::{view::RankDir, Value};
    /// let y = Value::new(2.0) * 3.0;
    /// assert!(y.to_dot_with(RankDir::TB).contains("rankdir=TB"));
    /// assert_eq!(y.to_dot_with(RankDir::LR), y.to_dot());
    /// ```
    pub fn to_dot_with(&self, options: impl Into<DotOptions>) -> String {
        let options = options.into();
        let rankdir = options.rankdir;
        let mut ids: AddressMap<usize> = AddressMap::default();
        let mut nodes = Vec::new();
        for_each_node(self, |v| {
            ids.insert(v.address(), nodes.len());
            nodes.push(v.clone());
        });
        let id = |v: &Value| ids[&v.address()];

        let mut out = format!("digraph {{\n  graph [rankdir={}];\n", rankdir.as_str());
        // Writing to a String cannot fail, so the `fmt::Result`s are ignored.
        for (i, v) in nodes.iter().enumerate() {
            let node = v.node();
            let label = node
                .label()
                .map(|l| format!("{} | ", escape_record(l)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  n{i} [shape=record, label=\"{{ {label}data {} | grad {} }}\"];",
                fixed4(node.data),
                fixed4(node.grad)
            );
            if let (Some(act), true) = (neuron_act(&node), options.as_python) {
                python_neuron(&mut out, i, &node, act, id);
            } else if !node.is_leaf() {
                let label = escape_string(&op_label(&node));
                let _ = writeln!(out, "  n{i}op [label=\"{label}\"];");
                let _ = writeln!(out, "  n{i}op -> n{i};");
                for parent in node.parent_list().iter() {
                    let _ = writeln!(out, "  n{} -> n{i}op;", id(parent));
                }
            }
        }
        out.push_str("}\n");
        out
    }
}

/// Draws the neuron node `n{i}` (already written as a record) as Python's graph:
/// `n{i}p{k}` for the product `wk*xk`, `n{i}s{k}` for the sum after it (the last one is
/// `n{i}` itself for a linear neuron), then the activation. Their gradients are those
/// Python's nodes get from `out.grad`: `f'(sum) * out.grad` for every product and sum.
fn python_neuron(out: &mut String, i: usize, node: &Node, act: Act, id: impl Fn(&Value) -> usize) {
    let parents = node.parent_list();
    let [b, wx @ ..] = &*parents else {
        unreachable!("a neuron node has its bias")
    };
    let g = crate::fast::sum_grad(act, node);
    let record = |out: &mut String, name: &str, data: f64| {
        let _ = writeln!(
            out,
            "  {name} [shape=record, label=\"{{ data {} | grad {} }}\"];",
            fixed4(data),
            fixed4(g)
        );
    };
    let op = |out: &mut String, name: &str, label: &str, inputs: &[&str]| {
        let _ = writeln!(out, "  {name}op [label=\"{label}\"];");
        let _ = writeln!(out, "  {name}op -> {name};");
        for input in inputs {
            let _ = writeln!(out, "  {input} -> {name}op;");
        }
    };
    // Python: sum((wi*xi for wi,xi in zip(self.w, x)), self.b): b + w0*x0, then + w1*x1, ...
    let (mut sum, mut prev) = (0.0 + b.data(), format!("n{}", id(b)));
    let n = wx.len() / 2;
    for (k, pair) in wx.chunks_exact(2).enumerate() {
        let (w, x) = (&pair[0], &pair[1]);
        let (product, p) = (format!("n{i}p{k}"), w.data() * x.data());
        record(out, &product, p);
        let (w, x) = (format!("n{}", id(w)), format!("n{}", id(x)));
        op(out, &product, "*", &[&w, &x]);
        sum += p;
        let last_is_node = k + 1 == n && act == Act::Linear;
        let s = if last_is_node {
            format!("n{i}")
        } else {
            format!("n{i}s{k}")
        };
        if !last_is_node {
            record(out, &s, sum);
        }
        op(out, &s, "+", &[&prev, &product]);
        prev = s;
    }
    match crate::fast::activation_rule(act) {
        Some(f) => op(out, &format!("n{i}"), f.name(), &[&prev]),
        // (No inputs: Python's `sum([], b)` is `b` itself.)
        None if n == 0 => op(out, &format!("n{i}"), "+", &[&prev]),
        None => {}
    }
}

/// The text of an op's node: the op, with its constant where it has one, as Python's
/// `f'**{other}'` shows `**2` (Rust's `{}` prints the `f64` 2.0 as `2`, like Python's int).
pub(crate) fn op_label(node: &Node) -> String {
    let c = node.consts();
    match (node.rule().is_some(), node.op_name()) {
        (true, "**") => format!("**{}", c[0]),
        (true, name @ ("powi" | "leaky_relu")) => format!("{name} {}", c[0]),
        (true, "clamp") => format!("clamp {} {}", c[0], c[1]),
        (_, name) => name.to_owned(),
    }
}

/// `x` with 4 decimals, as Python's `"%.4f" % x` writes it (the notebook's records):
/// `2.0000`, `-0.0000`, `inf`, and `nan` where Rust's `{:.4}` writes `NaN`.
pub(crate) fn fixed4(x: f64) -> String {
    if x.is_nan() {
        "nan".to_owned()
    } else {
        format!("{x:.4}")
    }
}

/// The most bytes of a label's text written as one quoted DOT string: Graphviz refuses
/// a quoted string longer than 16,384 bytes, so a longer label is written as pieces
/// joined by DOT's `+` (`"…" + "…"`, one string to Graphviz), each far below that
/// with the record's other fields around it.
const PIECE: usize = 8192;

/// Escapes a plain (not record) label for a DOT string: a custom op's name is the
/// user's text, and a `"` in it would end the string, a `\` start an escape (`\N` is
/// the node's id to Graphviz); for the rest see [`escape`].
fn escape_string(text: &str) -> String {
    escape(text, &['"', '\\'])
}

/// Escapes the characters that are special inside a Graphviz record label; for the rest
/// see [`escape`].
fn escape_record(text: &str) -> String {
    escape(text, &['{', '}', '|', '<', '>', '"', '\\'])
}

/// `text` for a DOT string, drawn by Graphviz as it is written: a `\` before each of
/// the `special` characters; each line break as DOT's `\n` (a raw one would be
/// dropped) and no carriage return; `&` as `&amp;` (Graphviz reads `&lt;` as `<`);
/// every other control character as Rust's `{:?}` writes it (`\0`, `\t`, `\u{1b}`),
/// since Graphviz cannot read a NUL and puts the others raw into its SVG, where XML
/// forbids them; and, past every [`PIECE`] bytes, `" + "`, so that no quoted string is
/// longer than Graphviz reads.
fn escape(text: &str, special: &[char]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut piece = 0;
    for c in text.chars() {
        if out.len() - piece >= PIECE {
            out.push_str("\" + \"");
            piece = out.len();
        }
        let plain = |out: &mut String, c: char| {
            if special.contains(&c) {
                out.push('\\');
            }
            out.push(c);
        };
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => {}
            '&' => out.push_str("&amp;"),
            c if c.is_control() => c.escape_debug().for_each(|e| plain(&mut out, e)),
            c => plain(&mut out, c),
        }
    }
    out
}

/// Calls `f` once on `root` and once on every value it was computed from, parents
/// after children (depth-first), in Python's graph (an `f64` operand's leaf and a
/// neuron's parents listed, `Node::parent_list`). Linear in
/// the graph size: visited nodes are found in a hash set of node addresses, not by
/// scanning a list.
pub(crate) fn for_each_node(root: &Value, mut f: impl FnMut(&Value)) {
    let mut seen = AddressSet::default();
    let mut stack = vec![root.clone()];
    seen.insert(root.address());
    while let Some(value) = stack.pop() {
        f(&value);
        for parent in value.node().parent_list().iter() {
            if seen.insert(parent.address()) {
                stack.push(parent.clone());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{escape_record, escape_string, PIECE};

    // Graphviz reads `{ } | < >` as record structure and drops a raw line break.
    #[test]
    fn record_labels_escape_structure_characters_and_line_breaks() {
        assert_eq!(escape_record("a{b}|<c>"), r"a\{b\}\|\<c\>");
        assert_eq!(escape_record("say \"hi\"\\"), r#"say \"hi\"\\"#);
        assert_eq!(escape_record("two\nlines"), r"two\nlines");
    }

    // An op's node is a plain label: only `"`, `\` and line breaks are special.
    #[test]
    fn plain_labels_escape_quotes_backslashes_and_line_breaks() {
        assert_eq!(escape_string("a{b}|<c>"), "a{b}|<c>");
        assert_eq!(escape_string("say \"hi\"\\N"), r#"say \"hi\"\\N"#);
        assert_eq!(escape_string("two\r\nlines"), r"two\nlines");
    }

    // Graphviz reads `&lt;` as `<`, cannot read a NUL, and writes other control
    // characters raw into its SVG: each is written so that it is drawn as written.
    #[test]
    fn ampersands_and_control_characters_are_drawn_as_written() {
        assert_eq!(escape_string("&lt; & &#60;"), "&amp;lt; &amp; &amp;#60;");
        assert_eq!(escape_string("a\0b\tc\u{1b}d"), r"a\\0b\\tc\\u{1b}d");
        assert_eq!(escape_record("a\0b\u{7f}"), r"a\\0b\\u\{7f\}"); // (`{ }` split records)
    }

    // A quoted string longer than 16,384 bytes is a syntax error to Graphviz.
    #[test]
    fn a_long_label_is_written_in_pieces_joined_by_plus() {
        let text = "é{".repeat(10_000); // 30,000 bytes, 50,000 escaped
        let escaped = escape_record(&text);
        let pieces: Vec<&str> = escaped.split("\" + \"").collect();
        assert!(pieces.len() > 1 && pieces.iter().all(|p| p.len() <= PIECE + 2));
        assert_eq!(pieces.concat(), r"é\{".repeat(10_000));
    }
}
