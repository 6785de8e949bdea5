//! Lesson 10: drawing the graph, as micrograd's `trace_graph.ipynb` does.

use micrograd::view::{draw_dot, RankDir, Renderer};
use micrograd::Value;

// x = Value(1.0); y = (x * 2 + 1).relu(); y.backward(); draw_dot(y)
#[test]
fn to_dot_draws_a_record_per_value_and_a_node_per_op() {
    let x = Value::new(1.0).with_label("x");
    let y = (&x * 2.0 + 1.0).relu().with_label("y");
    y.backward();
    let dot = y.to_dot();
    assert!(dot.starts_with("digraph {") && dot.contains("rankdir=LR"));
    assert!(dot.contains("{ y | data 3.0000 | grad 1.0000 }"));
    assert!(dot.contains("{ x | data 1.0000 | grad 2.0000 }"));
    // 6 values (x, 2, x*2, 1, x*2+1, relu) and 3 ops.
    assert_eq!(dot.matches("shape=record").count(), 6);
    for op in ["\"*\"", "\"+\"", "\"relu\""] {
        assert_eq!(dot.matches(&format!("label={op}")).count(), 1, "{op}");
    }
    // Each op has one edge to its result (3) and one from each input (2 + 2 + 1).
    assert_eq!(dot.matches("->").count(), 8);
}

#[test]
fn a_value_used_twice_is_drawn_once_with_two_edges() {
    let a = Value::new(3.0).with_label("a");
    let y = &a * &a;
    let dot = y.to_dot();
    assert_eq!(dot.matches("{ a | data 3.0000").count(), 1);
    assert_eq!(dot.matches("->").count(), 3); // a -> *, a -> *, * -> y
}

#[test]
fn labels_are_escaped_for_graphviz_records() {
    let a = Value::new(1.0).with_label("w{0}|<b>");
    let dot = (&a + 1.0).to_dot();
    assert!(dot.contains(r"w\{0\}\|\<b\>"), "{dot}");
}

// A custom op's name is the user's text too: a quote in it must not end the DOT string
// (Graphviz would refuse the file), and a backslash must not start an escape (`\N` is
// the node's id to Graphviz).
#[test]
fn custom_op_names_are_escaped_for_graphviz() {
    let x = Value::new(1.0);
    let y = Value::custom("say \"hi\" \\N", &[&x], |p| p[0], |_, _, d| d[0] = 1.0);
    let dot = y.to_dot();
    assert!(dot.contains(r#"n0op [label="say \"hi\" \\N"];"#), "{dot}");
    for line in dot.lines() {
        let unescaped = line.replace(r"\\", "").replace(r#"\""#, "");
        assert_eq!(unescaped.matches('"').count() % 2, 0, "unbalanced: {line}");
    }
}

// x = Value(float('nan')); draw_dot(x * 2)  ->  the records read "data nan" (Python's
// "%.4f" % nan), as the stepper shows it; Rust's {:.4} writes "NaN".
#[test]
fn a_nan_is_drawn_as_pythons_percent_4f_draws_it() {
    let x = Value::new(f64::NAN).with_label("x");
    let y = (&x * 2.0).with_label("y");
    let dot = y.to_dot();
    assert!(dot.contains("{ x | data nan | grad 0.0000 }"), "{dot}");
    assert!(dot.contains("{ y | data nan | grad 0.0000 }"), "{dot}");
    assert!(!dot.contains("NaN"), "{dot}");
    assert!(!y.to_html().contains("\"NaN\""));
}

// draw_dot(root, format='svg', rankdir='TB'): the notebook's other layout direction.
#[test]
fn rankdir_tb_draws_top_to_bottom() {
    let y = (Value::new(2.0).with_label("x") * 3.0).with_label("y");
    assert!(y.to_dot_with(RankDir::TB).contains("graph [rankdir=TB];"));
    assert!(y.to_dot().contains("graph [rankdir=LR];"));
    assert_eq!(draw_dot(&y, RankDir::TB).dot(), y.to_dot_with(RankDir::TB));
}

/// The lecture's neuron after `o.backward()`: o = tanh(x1*w1 + x2*w2 + b).
#[allow(clippy::excessive_precision)] // the lecture's literal, digit for digit
fn lecture_neuron() -> Value {
    let x1 = Value::new(2.0).with_label("x1");
    let x2 = Value::new(0.0).with_label("x2");
    let w1 = Value::new(-3.0).with_label("w1");
    let w2 = Value::new(1.0).with_label("w2");
    let b = Value::new(6.8813735870195432).with_label("b");
    let n = (&x1 * &w1 + &x2 * &w2 + &b).with_label("n");
    let o = n.tanh().with_label("o");
    o.backward();
    o
}

/// The non-empty text of every `<text>` element of an SVG, tags stripped and the
/// entities Graphviz writes (`&#45;` for `-`, `&#160;` for a space) decoded.
fn svg_texts(svg: &str) -> Vec<String> {
    svg.split("</text>")
        .filter_map(|before| {
            let element = &before[before.rfind("<text")?..];
            let plain: String = element
                .split('<')
                .map(|s| s.split_once('>').map_or("", |(_, text)| text))
                .collect();
            let plain = plain.replace("&#45;", "-").replace("&#160;", " ");
            (!plain.trim().is_empty()).then(|| plain.trim().to_owned())
        })
        .collect()
}

// dot.render(format='svg') without Graphviz: the pure-Rust layout draws every record.
#[cfg(feature = "layout")]
#[test]
fn the_layout_feature_draws_svg_without_graphviz() {
    let svg = lecture_neuron()
        .draw()
        .to_svg_with(Renderer::Layout)
        .unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
    let texts = svg_texts(&svg);
    for want in [
        "x1",
        "data 2.0000",
        "grad -1.5000",
        "w1",
        "grad 1.0000",
        "tanh",
        "o",
    ] {
        assert!(texts.iter().any(|t| t == want), "{want} not in {texts:?}");
    }
}

// With Graphviz installed, `to_svg` draws with it (CI installs it); without, the error
// says what to install.
#[test]
fn graphviz_draws_the_same_records_or_says_how_to_get_it() {
    let o = lecture_neuron();
    match o.draw().to_svg_with(Renderer::Graphviz) {
        Ok(svg) => {
            let texts = svg_texts(&svg);
            for want in ["x1", "data 2.0000", "grad -1.5000", "tanh", "grad 1.0000"] {
                assert!(texts.iter().any(|t| t == want), "{want} not in {texts:?}");
            }
            assert_eq!(o.to_svg().unwrap(), svg, "to_svg prefers Graphviz");
        }
        Err(e) => assert!(e.to_string().contains("apt-get install graphviz"), "{e}"),
    }
}

// The stepper page (`02_trace_graph --html PATH`): Python's `self.grad = 1`, then
// `v._backward()` for v in reversed(topo), shown step by step. CI also drives the page in
// a headless browser (scripts/ci/check_stepper.py).
#[test]
fn the_stepper_page_replays_backward_with_each_rule_in_python_and_rust() {
    let o = lecture_neuron();
    let grads: Vec<f64> = o.topo().iter().map(Value::grad).collect();
    let page = o.to_html();
    assert_eq!(
        o.topo().iter().map(Value::grad).collect::<Vec<_>>(),
        grads,
        "untouched"
    );
    // One step per value plus the seed; each step's grads are in the page in full.
    assert_eq!(page.matches("\"seed\":").count(), o.topo().len() + 1);
    for v in o.topo() {
        assert!(page.contains(&format!("{:?}", v.grad())), "{:?}", v.label());
    }
    assert!(page.contains("self.grad = 1"), "the seed");
    assert!(
        page.contains("self.grad += (1 - t**2) * out.grad"),
        "tanh, the lecture's"
    );
    assert!(
        page.contains("self.grad += other.data * out.grad"),
        "*, engine.py's"
    );
    // (`>` is written `\u003e` inside the page's data, so no label can end its script.)
    assert!(
        page.contains("local_grad: |_x, out, _| 1.0 - out * out,"),
        "tanh, the crate's"
    );
    assert!(
        !page.contains(" src=") && !page.contains("<link"),
        "self-contained"
    );
}

// A custom op steps like a built-in one and shows its name, with no source line.
#[test]
fn the_stepper_shows_a_custom_op_by_name() {
    let x = Value::new(0.5).with_label("x");
    let y = Value::custom("sin", &[&x], |p| p[0].sin(), |p, _, d| d[0] = p[0].cos());
    let page = (&y * 2.0).with_label("out").to_html();
    assert_eq!(x.grad(), 0.0, "the graph keeps the grads it had");
    assert!(page.contains("custom op `sin` (Value::custom)"), "its name");
    assert!(
        page.contains(&format!("{:?}", 2.0 * 0.5f64.cos())),
        "x.grad after the pass"
    );
    assert!(
        page.contains("\"python\":[],\"rust\":[]"),
        "no source line for the closure"
    );
}

// A label is the user's text: layout-rs's record parser ignores the escapes Graphviz
// honours, so `{ } | < >` would split the record or make a port. The pure-Rust layout
// draws them as their full-width look-alikes instead, one field for the label as
// Graphviz draws it; a backslash is drawn as it is.
#[cfg(feature = "layout")]
#[test]
fn the_layout_feature_draws_record_characters_in_a_label_as_look_alikes() {
    for (label, drawn) in [
        ("a{b}", "a\u{ff5b}b\u{ff5d}"),
        ("a|b", "a\u{ff5c}b"),
        ("<b>x", "\u{ff1c}b\u{ff1e}x"),
        ("back\\slash", "back\\slash"),
        ("a\\{b", "a\\\u{ff5b}b"),
    ] {
        let svg = Value::new(1.0)
            .with_label(label)
            .draw()
            .to_svg_with(Renderer::Layout)
            .unwrap();
        let texts = svg_texts(&svg);
        assert_eq!(texts, [drawn, "data 1.0000", "grad 0.0000"], "{label:?}");
    }
}

/// Labels Graphviz could not read, or drew other than as written, each with the text a
/// picture must show for it: a NUL and other control characters (as `{:?}` writes
/// them), entities (`&lt;` is four characters, not `<`), and strings longer than the
/// 16,384 bytes Graphviz reads in one quoted string (plain, and all record characters).
fn odd_labels() -> Vec<(String, String)> {
    let long = "ab".repeat(10_000);
    let long_record = "{|}".repeat(6_000);
    vec![
        ("a\0b".to_owned(), r"a\0b".to_owned()),
        (
            "a\u{1}b\u{1b}c\u{7f}\td".to_owned(),
            r"a\u{1}b\u{1b}c\u{7f}\td".to_owned(),
        ),
        ("&lt;".to_owned(), "&lt;".to_owned()),
        ("x & y &#60;".to_owned(), "x & y &#60;".to_owned()),
        (long.clone(), long),
        (long_record.clone(), long_record),
    ]
}

/// The texts of an SVG as a browser shows them: [`svg_texts`] with XML's entities read.
fn drawn_texts(svg: &str) -> Vec<String> {
    svg_texts(svg)
        .into_iter()
        .map(|t| {
            t.replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\"")
                .replace("&amp;", "&")
        })
        .collect()
}

/// Draws a value labelled `label` under a custom op named `label` with `renderer`, and
/// returns the texts drawn.
fn draw_labelled(label: &str, renderer: Renderer) -> Result<Vec<String>, micrograd::Error> {
    let name: &'static str = Box::leak(label.to_owned().into_boxed_str());
    let x = Value::new(1.0).with_label(label);
    let y = Value::custom(name, &[&x], |p| p[0], |_, _, d| d[0] = 1.0);
    Ok(drawn_texts(&y.draw().to_svg_with(renderer)?))
}

// draw_dot(root) with labels Graphviz cannot take as they are: the DOT escapes or
// splits them, and the picture shows each label as written, in its record and as the
// op's name.
#[test]
fn graphviz_reads_any_label_and_draws_it_as_written() {
    for (label, shown) in odd_labels() {
        match draw_labelled(&label, Renderer::Graphviz) {
            Ok(texts) => {
                let drawn = texts.iter().filter(|t| **t == shown).count();
                assert_eq!(drawn, 2, "{:?}: {texts:?}", &shown[..shown.len().min(40)]);
            }
            Err(e) => assert!(e.to_string().contains("apt-get install graphviz"), "{e}"),
        }
    }
}

// The same labels through the pure-Rust layout (record characters in a value's label
// drawn as their look-alikes, see above).
#[cfg(feature = "layout")]
#[test]
fn the_layout_feature_reads_any_label_and_draws_it_as_written() {
    for (label, shown) in odd_labels() {
        let texts = draw_labelled(&label, Renderer::Layout).unwrap();
        let record = shown
            .replace('{', "\u{ff5b}")
            .replace('|', "\u{ff5c}")
            .replace('}', "\u{ff5d}");
        let head = &shown[..shown.len().min(40)];
        assert!(texts.contains(&record), "{head:?}: {texts:?}");
        assert!(texts.contains(&shown), "{head:?}: {texts:?}");
    }
}
