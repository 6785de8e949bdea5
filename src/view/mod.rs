//! Pictures of a graph: Graphviz DOT, SVG, inline notebook drawings and a web page that
//! steps through the backward pass. They read the graph; the engine does not depend on
//! them.
//!
//! | file | what it holds | Python |
//! |------|---------------|--------|
//! | `dot.rs` | [`Value::to_dot`](crate::Value::to_dot), [`RankDir`], [`DotOptions`] (a neuron drawn as Python's graph) | `trace_graph.ipynb`'s `draw_dot` |
//! | `svg.rs` | SVG by Graphviz or by the pure-Rust `layout-rs` ([`Renderer`]) | `dot.render(format='svg')` |
//! | `drawing.rs` | [`Drawing`], [`draw_dot`], inline display in evcxr notebooks | a `Digraph` shown by Jupyter |
//! | `html.rs`, `stepper.js`, `stepper.css` | [`Value::to_html`](crate::Value::to_html): a page that steps through `backward()` | the lecture's `o._backward()`, node by node |
//! | `trace.rs` | recording that pass with the engine's own rules | `for v in reversed(topo): v._backward()` |
//! | `rule_text.rs` | each op's rule as micrograd's Python and this crate's Rust (a one- or two-parent op's text is written with its rule, in `src/rules/` or `src/ops/`) | each op's `_backward` |
//!
//! ```
//! use micrograd::{view::RankDir, Value};
//! let y = (Value::new(2.0).with_label("x") * 3.0).with_label("y");
//! assert!(y.to_dot_with(RankDir::TB).contains("{ y | data 6.0000 | grad 0.0000 }"));
//! ```

mod dot;
mod drawing;
mod html;
mod rule_text;
mod svg;
mod trace;

pub use dot::{DotOptions, RankDir};
pub use drawing::{draw_dot, Drawing};
pub use svg::Renderer;
