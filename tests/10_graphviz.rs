//! Lesson 10: drawing the graph, as micrograd's `trace_graph.ipynb` does.

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
