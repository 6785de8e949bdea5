//! A self-contained web page that steps through the backward pass of a graph.

use std::fmt::Write;

use super::rule_text::{rule_text, Kind, RuleText, SEED};
use super::trace::{Trace, TraceNode};
use crate::engine::Value;
use crate::repr::PyFloat;

/// The page's script and style, inlined so the page needs no network.
const SCRIPT: &str = include_str!("stepper.js");
const STYLE: &str = include_str!("stepper.css");

impl Value {
    /// A self-contained HTML page (no network: its script, style and picture are
    /// inline) that steps through the backward pass of this value's graph, node by node
    /// in reverse topological order, and back: Python's `self.grad = 1`, then
    /// `v._backward()` for each `v` in `reversed(topo)`, in the order
    /// [`backward`](Value::backward) runs the rules (a reverse topological order too, so
    /// each gradient's terms are added exactly as `backward()` adds them).
    ///
    /// The page draws every value with its data and grad (as
    /// [`to_dot`](Value::to_dot) does), highlights the node whose rule runs, shows that
    /// rule as micrograd's Python line and this crate's Rust line (a custom op shows its
    /// name; its closure has no source line), and lists the grads the step changes,
    /// before and after. The pass starts from zero grads and runs the engine's own
    /// rules, so its last step shows what [`backward`](Value::backward) computes; this
    /// value's graph keeps the grads it had.
    ///
    /// ```
    /// use micrograd::Value;
    /// let x = Value::new(2.0).with_label("x");
    /// let y = (&x * &x).with_label("y");
    /// let page = y.to_html();
    /// assert!(page.starts_with("<!DOCTYPE html>"));
    /// assert!(page.contains("self.grad += other.data * out.grad"));   // Python's `*` rule
    /// assert!(!page.contains(" src=") && !page.contains("<link"));   // nothing to fetch
    /// assert_eq!(x.grad(), 0.0);                                        // untouched
    /// ```
    pub fn to_html(&self) -> String {
        let trace = Trace::record(self);
        let title = self.label().unwrap_or_else(|| "a graph".into());
        let mut json = String::new();
        write_json(&mut json, &trace, &title);
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
             <title>backward() of {title}, step by step</title>\n<style>\n{STYLE}</style>\n</head>\n\
             <body>\n<script type=\"application/json\" id=\"graph\">{json}</script>\n\
             <script>\n{SCRIPT}</script>\n</body>\n</html>\n",
            title = escape_html(&title),
        )
    }
}

/// Where each value's record sits, left to right as `to_dot` lays it out.
struct Place {
    x: f64,
    y: f64,
    width: f64,
}

const CHAR_WIDTH: f64 = 7.8;
const FIELD_PAD: f64 = 16.0;
const ROW: f64 = 54.0;
const OP_ZONE: f64 = 110.0;
const MARGIN: f64 = 24.0;

/// A layered layout: a leaf in column 0, every other value one column right of its
/// rightmost parent; within a column, values ordered by the mean row of their consumers
/// (placed first, from the root leftwards) so that edges cross less.
fn place(trace: &Trace, widths: &[f64]) -> (Vec<Place>, f64, f64) {
    let n = trace.nodes.len();
    let mut column = vec![0usize; n];
    for (i, node) in trace.nodes.iter().enumerate() {
        column[i] = node
            .parents
            .iter()
            .map(|&p| column[p] + 1)
            .max()
            .unwrap_or(0);
    }
    let columns = column.iter().max().map_or(0, |c| c + 1);
    let mut consumers: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (i, node) in trace.nodes.iter().enumerate() {
        for &p in &node.parents {
            consumers[p].push(i);
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); columns];
    for i in (0..n).rev() {
        members[column[i]].push(i);
    }
    let tallest = members.iter().map(Vec::len).max().unwrap_or(1);
    let mut row = vec![0.0f64; n];
    for c in (0..columns).rev() {
        let key = |i: usize| {
            let rows: Vec<f64> = consumers[i].iter().map(|&k| row[k]).collect();
            if rows.is_empty() {
                0.0
            } else {
                rows.iter().sum::<f64>() / rows.len() as f64
            }
        };
        let mut keyed: Vec<(f64, usize)> = members[c].iter().map(|&i| (key(i), i)).collect();
        keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(b.1.cmp(&a.1)));
        let offset = (tallest - keyed.len()) as f64 / 2.0;
        for (slot, &(_, i)) in keyed.iter().enumerate() {
            row[i] = offset + slot as f64;
        }
    }
    let mut left = vec![MARGIN; columns];
    for c in 1..columns {
        let widest = members[c - 1]
            .iter()
            .map(|&i| widths[i])
            .fold(0.0, f64::max);
        left[c] = left[c - 1] + widest + OP_ZONE;
    }
    let places = (0..n)
        .map(|i| Place {
            x: left[column[i]],
            y: MARGIN + row[i] * ROW,
            width: widths[i],
        })
        .collect::<Vec<_>>();
    let width = places.iter().map(|p| p.x + p.width).fold(0.0, f64::max) + MARGIN;
    let height = MARGIN * 2.0 + tallest as f64 * ROW;
    (places, width, height)
}

/// `data` / `grad` as the drawing shows them: 4 decimals, as `to_dot` and Python's
/// `"%.4f"` (`nan` for NaN).
fn shown(x: f64) -> String {
    super::dot::fixed4(x)
}

/// Writes the page's data: nodes (with their place and rule), then steps.
fn write_json(out: &mut String, trace: &Trace, title: &str) {
    // The widest text a record's data or grad field will hold, for its width.
    let mut longest: Vec<usize> = trace.nodes.iter().map(|n| shown(n.data).len()).collect();
    for step in &trace.steps {
        for c in &step.changes {
            let len = shown(c.before).len().max(shown(c.after).len());
            longest[c.node] = longest[c.node].max(len);
        }
    }
    let widths: Vec<f64> = trace
        .nodes
        .iter()
        .zip(&longest)
        .map(|(n, &len)| {
            let label = n
                .label
                .as_ref()
                .map_or(0.0, |l| l.chars().count() as f64 * CHAR_WIDTH + FIELD_PAD);
            label + 2.0 * ((len + 5) as f64 * CHAR_WIDTH + FIELD_PAD)
        })
        .collect();
    let (places, width, height) = place(trace, &widths);

    let _ = write!(
        out,
        "{{\"title\":{},\"width\":{width:.1},\"height\":{height:.1},\"nodes\":[",
        json_str(title)
    );
    for (i, (node, place)) in trace.nodes.iter().zip(&places).enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_node(out, node, place);
    }
    out.push_str("],\"steps\":[");
    for (i, step) in trace.steps.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        let rule = if step.seed {
            SEED
        } else {
            rule_text(trace.nodes[step.node].kind, trace.nodes[step.node].rule)
        };
        let _ = write!(out, "{{\"node\":{},\"seed\":{},", step.node, step.seed);
        write_rule(out, &trace.nodes[step.node], rule, step.seed);
        out.push_str(",\"changes\":[");
        for (k, c) in step.changes.iter().enumerate() {
            if k > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "[{},{},{},{},{}]",
                c.node,
                json_str(&PyFloat(c.before).to_string()),
                json_str(&PyFloat(c.after).to_string()),
                json_str(&shown(c.before)),
                json_str(&shown(c.after))
            );
        }
        out.push_str("]}");
    }
    out.push_str("]}");
}

fn write_node(out: &mut String, node: &TraceNode, place: &Place) {
    let _ = write!(
        out,
        "{{\"label\":{},\"op\":{},\"custom\":{},\"data\":{},\"dataShown\":{},\"parents\":{:?},\
         \"x\":{:.1},\"y\":{:.1},\"w\":{:.1}}}",
        node.label.as_deref().map_or("null".into(), json_str),
        json_str(&node.op_label),
        node.kind == Kind::Custom,
        json_str(&PyFloat(node.data).to_string()),
        json_str(&shown(node.data)),
        node.parents,
        place.x,
        place.y,
        place.width
    );
}

/// The rule's caption and its Python and Rust lines.
fn write_rule(out: &mut String, node: &TraceNode, rule: RuleText, seed: bool) {
    let caption = if node.kind == Kind::Custom && !seed {
        format!(
            "custom op `{}` (Value::custom): its local_grads closure gives d[i], and the \
             engine adds d[i] * out.grad to each parent; a closure has no source line to show",
            node.op_label
        )
    } else {
        rule.source.caption()
    };
    let lines = |lines: &[&str]| {
        let quoted: Vec<String> = lines.iter().map(|l| json_str(l)).collect();
        format!("[{}]", quoted.join(","))
    };
    let _ = write!(
        out,
        "\"caption\":{},\"python\":{},\"rust\":{}",
        json_str(&caption),
        lines(rule.python),
        lines(rule.rust)
    );
}

/// A JSON string literal that is also safe inside `<script>`: `<`, `>` and `&` are
/// written as `\u003c` and so on, so a label cannot end the script element.
fn json_str(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '<' | '>' | '&' | '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Text for HTML: `<`, `>`, `&` and `"` escaped.
fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    // A label is the user's text: it must not be able to close the script it sits in.
    #[test]
    fn labels_cannot_break_out_of_the_page_data() {
        assert_eq!(
            json_str("</script>\"\\\n"),
            r#""\u003c/script\u003e\"\\\u000a""#
        );
        let page = (Value::new(1.0).with_label("</script><b>") * 2.0).to_html();
        assert_eq!(
            page.matches("</script>").count(),
            2,
            "only the page's own two"
        );
    }
}
