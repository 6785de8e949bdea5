//! Drawing the graph in Graphviz DOT, as micrograd's `trace_graph.ipynb` does.

use std::collections::HashMap;
use std::fmt::Write;

use super::value::Value;
use super::walk::for_each_node;

impl Value {
    /// The graph under this value in Graphviz DOT, laid out left to right as in
    /// micrograd's `trace_graph.ipynb`: a record `{ label | data 4.0000 | grad 1.0000 }`
    /// for each value (without the label part when it has none) and a small node for
    /// each op, with edges from inputs to the op to its result.
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
    /// ```
    pub fn to_dot(&self) -> String {
        let mut ids: HashMap<*const (), usize> = HashMap::new();
        let mut nodes = Vec::new();
        for_each_node(self, |v| {
            ids.insert(v.address(), nodes.len());
            nodes.push(v.clone());
        });
        let id = |v: &Value| ids[&v.address()];

        let mut out = String::from("digraph {\n  graph [rankdir=LR];\n");
        // Writing to a String cannot fail, so the `fmt::Result`s are ignored.
        for (i, v) in nodes.iter().enumerate() {
            let node = v.node();
            let label = node
                .label()
                .map(|l| format!("{} | ", escape_record(l)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "  n{i} [shape=record, label=\"{{ {label}data {:.4} | grad {:.4} }}\"];",
                node.data, node.grad
            );
            let op = node.op.symbol();
            if !op.is_empty() {
                let _ = writeln!(out, "  n{i}op [label=\"{}\"];", escape_record(op));
                let _ = writeln!(out, "  n{i}op -> n{i};");
                for parent in node.parents() {
                    let _ = writeln!(out, "  n{} -> n{i}op;", id(parent));
                }
            }
        }
        out.push_str("}\n");
        out
    }
}

/// Escapes the characters that are special inside a Graphviz record label.
fn escape_record(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '{' | '}' | '|' | '<' | '>' | '"' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}
