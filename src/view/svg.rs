//! Turning DOT into SVG: with Graphviz's `dot` when it is installed, else with the
//! pure-Rust layout engine of the `layout-rs` crate (the `layout` feature).

use std::io::{ErrorKind, Write};
use std::process::{Command, Stdio};

use crate::error::Error;

/// Who lays out and draws a graph as SVG.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Renderer {
    /// Graphviz's `dot` program (`apt-get install graphviz`, `brew install graphviz`):
    /// curved edges and compact records, as micrograd's pictures look.
    Graphviz,
    /// The pure-Rust `layout-rs` crate, compiled in with the `layout` feature: nothing
    /// to install, straight edges, wider pictures.
    ///
    /// Its record labels cannot hold `{ } | < >` (it reads them as record structure
    /// even when escaped), so in a value's label they are drawn as their full-width
    /// look-alikes `｛ ｝ ｜ ＜ ＞`: `a{b}` is drawn `a｛b｝`, one field as Graphviz draws
    /// it. The DOT ([`Drawing::dot`](super::Drawing::dot)) keeps the label as it is.
    Layout,
}

/// SVG from whichever renderer is there: Graphviz if its `dot` runs, else `layout-rs`.
pub(crate) fn render_auto(dot: &str) -> Result<String, Error> {
    match graphviz(dot)? {
        Some(svg) => Ok(trim_prolog(svg)),
        None if cfg!(feature = "layout") => render(dot, Renderer::Layout),
        None => Err(Error::Render(format!(
            "Graphviz's `dot` is not installed and micrograd was built without its `layout` \
             feature; install Graphviz (`apt-get install graphviz`) or enable the feature: \
             micrograd = {{ version = \"{}\", features = [\"layout\"] }}",
            env!("CARGO_PKG_VERSION")
        ))),
    }
}

/// SVG from the given renderer.
pub(crate) fn render(dot: &str, renderer: Renderer) -> Result<String, Error> {
    let svg = match renderer {
        Renderer::Graphviz => graphviz(dot)?.ok_or_else(|| {
            Error::Render(
                "Graphviz's `dot` is not installed; install it (`apt-get install graphviz`)".into(),
            )
        })?,
        Renderer::Layout => layout(dot)?,
    };
    Ok(trim_prolog(svg))
}

/// The SVG from `<svg` on: no XML prolog and no generator comment, so the text does not
/// name the renderer's version.
fn trim_prolog(svg: String) -> String {
    match svg.find("<svg") {
        Some(start) => svg[start..].to_owned(),
        None => svg,
    }
}

/// Runs `dot -Tsvg`, the DOT on its standard input; `None` when `dot` is not installed.
fn graphviz(dot: &str) -> Result<Option<String>, Error> {
    let child = Command::new("dot")
        .arg("-Tsvg")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let mut child = match child {
        Ok(child) => child,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Render(format!("cannot run Graphviz's `dot`: {e}"))),
    };
    // `dot` reads all of its input before it writes, so writing first cannot deadlock.
    if let Some(mut stdin) = child.stdin.take() {
        stdin
            .write_all(dot.as_bytes())
            .map_err(|e| Error::Render(format!("cannot send the graph to `dot`: {e}")))?;
    }
    let out = child
        .wait_with_output()
        .map_err(|e| Error::Render(format!("`dot -Tsvg` did not finish: {e}")))?;
    if !out.status.success() {
        return Err(Error::Render(format!(
            "`dot -Tsvg` failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        )));
    }
    String::from_utf8(out.stdout).map(Some).map_err(|e| {
        Error::Render(format!(
            "`dot -Tsvg` wrote something that is not UTF-8: {e}"
        ))
    })
}

#[cfg(feature = "layout")]
fn layout(dot: &str) -> Result<String, Error> {
    use layout::backends::svg::SVGWriter;
    use layout::gv::{DotParser, GraphBuilder};

    let dot = record_look_alikes(dot);
    let tree = DotParser::new(&dot)
        .process()
        .map_err(|e| Error::Render(format!("layout-rs cannot read the DOT: {e}")))?;
    let mut builder = GraphBuilder::new();
    builder.visit_graph(&tree);
    let mut graph = builder.get();
    let mut svg = SVGWriter::new();
    graph.do_it(false, false, false, &mut svg);
    Ok(svg.finalize())
}

/// `dot` with each escaped record character of its strings (`\{ \} \| \< \>`, as
/// `escape_record` writes a label's text) made its full-width look-alike: layout-rs's
/// lexer drops the backslash of any escape but `\n`, and its record parser then splits
/// at `{ } |` and takes a field's leading `<...>` as a port name. Other escapes (`\\`,
/// `\"`, `\n`) are kept. Two more things layout-rs does not read are undone: the
/// pieces of a long string (`"…" + "…"`) are joined, and `&amp;` (Graphviz's entity,
/// which `escape` writes for `&`) is `&` again, since layout-rs draws entities as
/// written. Outside strings nothing changes.
#[cfg_attr(not(feature = "layout"), allow(dead_code))]
fn record_look_alikes(dot: &str) -> String {
    let mut out = String::with_capacity(dot.len());
    let (mut rest, mut in_string) = (dot, false);
    while let Some(c) = rest.chars().next() {
        rest = &rest[c.len_utf8()..];
        match c {
            '"' if in_string && rest.starts_with(" + \"") => {
                rest = &rest[" + \"".len()..];
                continue;
            }
            '"' => in_string = !in_string,
            '&' if in_string && rest.starts_with("amp;") => {
                rest = &rest["amp;".len()..];
            }
            '\\' if in_string => {
                let mut chars = rest.chars();
                let look_alike = match chars.next() {
                    Some('{') => '\u{ff5b}',
                    Some('}') => '\u{ff5d}',
                    Some('|') => '\u{ff5c}',
                    Some('<') => '\u{ff1c}',
                    Some('>') => '\u{ff1e}',
                    Some(next) => {
                        out.push(c);
                        next
                    }
                    None => c,
                };
                rest = chars.as_str();
                out.push(look_alike);
                continue;
            }
            _ => {}
        }
        out.push(c);
    }
    out
}

#[cfg(not(feature = "layout"))]
fn layout(_dot: &str) -> Result<String, Error> {
    Err(Error::Render(
        "micrograd was built without its `layout` feature; enable it: \
         micrograd = { features = [\"layout\"] }"
            .into(),
    ))
}

#[cfg(test)]
mod tests {
    use super::record_look_alikes;

    // Only escaped record characters inside strings change; `\\`, `\"` and `\n` stay.
    #[test]
    fn record_look_alikes_replace_escaped_structure_characters_only() {
        let dot = r#"n0 [shape=record, label="{ a\{b\}\|\<c\> \\ \" \n | data 1 }"];"#;
        assert_eq!(
            record_look_alikes(dot),
            r#"n0 [shape=record, label="{ a｛b｝｜＜c＞ \\ \" \n | data 1 }"];"#
        );
        assert_eq!(record_look_alikes(r"a\{ -> b"), r"a\{ -> b");
    }

    // A long label's pieces are one string again, and `&amp;` is `&`: layout-rs reads
    // neither, and escapes `&` itself.
    #[test]
    fn record_look_alikes_join_pieces_and_undo_ampersand_entities() {
        let dot = r#"n0 [label="{ a&amp;lt;\{" + "b\\" + "c | data 1 }"]; a + "b""#;
        assert_eq!(
            record_look_alikes(dot),
            r#"n0 [label="{ a&lt;｛b\\c | data 1 }"]; a + "b""#
        );
    }
}
