//! A drawing of a graph: micrograd's `draw_dot(root)`, shown inline in a notebook.

use super::dot::{DotOptions, RankDir};
use super::svg::{render, render_auto, Renderer};
use crate::engine::Value;
use crate::error::Error;

/// A picture of the graph under a value, taken when it is made (later changes to the
/// graph's numbers do not show): what micrograd's `draw_dot(root)` returns. In an
/// [evcxr](https://github.com/evcxr/evcxr) notebook, a cell ending in a `Drawing` shows
/// it as SVG.
///
/// ```
/// use micrograd::{view::{draw_dot, RankDir}, Value};
/// let x = Value::new(1.0).with_label("x");
/// let y = (&x * 2.0 + 1.0).relu().with_label("y");
/// y.backward();
/// let drawing = draw_dot(&y, RankDir::TB);   // Python: draw_dot(y, rankdir='TB')
/// assert!(drawing.dot().contains("{ x | data 1.0000 | grad 2.0000 }"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Drawing {
    dot: String,
}

/// Draws the graph under `root`: micrograd's `draw_dot(root, format='svg', rankdir='LR')`.
/// `options` is a [`RankDir`] or [`DotOptions`] (to draw neurons as Python's graph).
pub fn draw_dot(root: &Value, options: impl Into<DotOptions>) -> Drawing {
    Drawing {
        dot: root.to_dot_with(options),
    }
}

impl Drawing {
    /// The graph in Graphviz DOT ([`Value::to_dot_with`]).
    pub fn dot(&self) -> &str {
        &self.dot
    }

    /// The picture as SVG text (starting at `<svg`), drawn by Graphviz's `dot` when it is
    /// installed and otherwise by the pure-Rust `layout-rs` (the `layout` feature).
    ///
    /// # Errors
    /// [`Error::Render`] when neither is available or the renderer fails; the message
    /// says what to install.
    pub fn to_svg(&self) -> Result<String, Error> {
        render_auto(&self.dot)
    }

    /// The picture as SVG text, drawn by the given [`Renderer`].
    ///
    /// # Errors
    /// [`Error::Render`] when that renderer is not available (Graphviz not installed,
    /// or micrograd built without the `layout` feature) or fails.
    pub fn to_svg_with(&self, renderer: Renderer) -> Result<String, Error> {
        render(&self.dot, renderer)
    }

    /// Shows the picture in an evcxr notebook (called by the kernel when a cell ends in
    /// a `Drawing`): prints the SVG between evcxr's `EVCXR_BEGIN_CONTENT image/svg+xml`
    /// and `EVCXR_END_CONTENT` markers, or, when no renderer is available, the reason
    /// and the DOT as text.
    pub fn evcxr_display(&self) {
        print!("{}", self.evcxr_content());
    }

    /// What [`evcxr_display`](Drawing::evcxr_display) prints.
    pub(crate) fn evcxr_content(&self) -> String {
        match self.to_svg() {
            Ok(svg) => format!("EVCXR_BEGIN_CONTENT image/svg+xml\n{svg}\nEVCXR_END_CONTENT\n"),
            Err(e) => format!(
                "EVCXR_BEGIN_CONTENT text/plain\n{e}\n\n{}EVCXR_END_CONTENT\n",
                self.dot
            ),
        }
    }
}

impl Value {
    /// A drawing of the graph under this value, left to right:
    /// `draw_dot(self, RankDir::LR)`. In an evcxr notebook a cell ending in `y.draw()`
    /// shows it.
    ///
    /// ```
    /// let y = micrograd::Value::new(2.0).relu();
    /// assert_eq!(y.draw().dot(), y.to_dot());
    /// ```
    pub fn draw(&self) -> Drawing {
        draw_dot(self, RankDir::LR)
    }

    /// The graph under this value as SVG ([`Drawing::to_svg`]): Graphviz's `dot` when it
    /// is installed, else the pure-Rust layout of the `layout` feature.
    ///
    /// # Errors
    /// [`Error::Render`] when neither renderer is available or the renderer fails.
    ///
    /// ```
    /// let y = micrograd::Value::new(2.0).with_label("y").relu();
    /// match y.to_svg() {
    ///     Ok(svg) => assert!(svg.starts_with("<svg")),
    ///     Err(e) => assert!(e.to_string().contains("graphviz")),
    /// }
    /// ```
    pub fn to_svg(&self) -> Result<String, Error> {
        self.draw().to_svg()
    }

    /// Shows this value's graph inline in an evcxr notebook, as SVG: a cell ending in a
    /// `Value` draws it (use `println!("{y:?}")` for Python's `repr` line instead). See
    /// [`Drawing::evcxr_display`].
    pub fn evcxr_display(&self) {
        self.draw().evcxr_display();
    }
}

#[cfg(test)]
mod tests {
    use crate::Value;

    // evcxr shows a cell's last value by calling its `evcxr_display`, which must print
    // the SVG between the markers, or say why there is none.
    #[test]
    fn evcxr_display_prints_svg_between_the_markers_or_the_reason_as_text() {
        let y = (Value::new(2.0).with_label("x") * 3.0).with_label("y");
        let shown = y.draw().evcxr_content();
        assert!(shown.ends_with("\nEVCXR_END_CONTENT\n"), "{shown}");
        match y.to_svg() {
            Ok(svg) => assert_eq!(
                shown,
                format!("EVCXR_BEGIN_CONTENT image/svg+xml\n{svg}\nEVCXR_END_CONTENT\n")
            ),
            Err(e) => {
                assert!(shown.starts_with("EVCXR_BEGIN_CONTENT text/plain\n"));
                assert!(shown.contains(&e.to_string()) && shown.contains("digraph"));
            }
        }
    }
}
