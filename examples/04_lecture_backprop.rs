//! Teaches: backpropagation by hand, the first half of Karpathy's micrograd lecture
//! ("The spelled-out intro to neural networks and backpropagation", Zero to Hero).
//!
//! `L = (a*b + c) * f` with every node labelled; its gradients worked out by hand with
//! the chain rule and set with `set_grad`; the lecture's numerical check (`lol()`: each
//! node nudged by h = 0.001, `(L2 - L1)/h` printed as Python prints it; then the
//! crate's `check_gradients`); one step that nudges the leaves along their gradients; then the
//! neuron `o = tanh(x1*w1 + x2*w2 + b)`, backpropagated node by node with
//! `backward_step` (Python's `o._backward()`), in `topo` order, and with `backward()`;
//! `tanh` written as your own op (`Value::custom`) and re-written from `exp`. It prints
//! what the lecture prints, and with `--dot PATH` writes the neuron's graph (render it
//! with `dot -Tsvg PATH -o neuron.svg`).
//!
//! Run: `cargo run --example 04_lecture_backprop [-- --h STEP --dot PATH]`.

mod common;

use std::process::ExitCode;

use micrograd::engine::check_gradients;
use micrograd::Value;

const USAGE: &str = "04_lecture_backprop [--h STEP] [--dot PATH]   (defaults: --h 0.001, no file)";

fn main() -> ExitCode {
    common::main_with(run)
}

fn run() -> common::Result {
    let Some(mut args) = common::flags_or_help(USAGE) else {
        return Ok(());
    };
    let h: f64 = common::checked_number(&mut args, "--h", 1e-3, "a number > 0", |h: &f64| {
        *h > 0.0 && h.is_finite()
    })?;
    let dot = common::path(&mut args, "--dot")?;
    common::finish(args, USAGE)?;
    if let Some(path) = &dot {
        common::check_output_path(path)?;
    }

    expression(h)?;
    let o = neuron();
    println!();
    your_own_tanh();
    tanh_from_exp();
    if let Some(path) = dot {
        common::files::write(&path, o.to_dot())?;
        println!("\nthe neuron's graph: {} (dot -Tsvg it)", path.display());
    }
    Ok(())
}

/// `L = (a*b + c) * f`: gradients by hand, the numerical check, one nudge.
fn expression(h: f64) -> common::Result {
    // a = Value(2.0, label='a'); b = Value(-3.0, label='b'); c = Value(10.0, label='c')
    let a = Value::new(2.0).with_label("a");
    let b = Value::new(-3.0).with_label("b");
    let c = Value::new(10.0).with_label("c");
    // e = a*b; e.label = 'e'; d = e + c; d.label = 'd'
    let e = (&a * &b).with_label("e");
    let d = (&e + &c).with_label("d");
    // f = Value(-2.0, label='f'); L = d * f; L.label = 'L'
    let f = Value::new(-2.0).with_label("f");
    let l = (&d * &f).with_label("L");
    println!("L = {l}");

    // By hand, with the chain rule: dL/dL = 1; dL/df = d; dL/dd = f;
    // dL/dc = dL/dd * dd/dc = f; dL/de = f; dL/da = f * b; dL/db = f * a
    l.set_grad(1.0);
    f.set_grad(d.data());
    d.set_grad(f.data());
    c.set_grad(f.data());
    e.set_grad(f.data());
    a.set_grad(f.data() * b.data());
    b.set_grad(f.data() * a.data());
    let by_hand = [&a, &b, &c, &d, &e, &f].map(Value::grad);
    println!("by hand:     a.grad, b.grad, c.grad, d.grad, e.grad, f.grad = {by_hand:?}");

    // L.backward() computes the same
    l.zero_grad_graph();
    l.backward();
    let computed = [&a, &b, &c, &d, &e, &f].map(Value::grad);
    println!("backward():  a.grad, b.grad, c.grad, d.grad, e.grad, f.grad = {computed:?}");

    // def lol(): h = 0.001; build L, L1 = L.data; build it again with one node's data
    // plus h, L2 = L.data; print((L2 - L1)/h)
    for name in ["a", "b", "c", "e", "d", "f"] {
        let l1 = lol(h, "").data();
        let l2 = lol(h, name).data();
        println!("lol(), {name} nudged: (L2 - L1)/h = {:?}", (l2 - l1) / h);
    }

    // The same check, a central difference: micrograd::engine::check_gradients
    let check = check_gradients(&[&a, &b, &c, &f], h, || (&a * &b + &c) * &f)?;
    for leaf in &check.leaves {
        let name = leaf.label.as_deref().unwrap_or("?");
        println!(
            "check_gradients (h = {h}): dL/d{name} = {:?}",
            leaf.numerical
        );
    }
    println!("{check}");

    // a.data += 0.01 * a.grad (and b, c, f): L goes up, towards 0
    for leaf in [&a, &b, &c, &f] {
        leaf.set_data(leaf.data() + 0.01 * leaf.grad());
    }
    let l = (&a * &b + &c) * &f;
    println!("after one nudge of 0.01 * grad: L = {}", l.data());
    Ok(())
}

/// The lecture's `lol()`: `L = (a*b + c) * f` built anew, with `h` added to the data of
/// the node named `nudge` right after it is made (none for `""`).
fn lol(h: f64, nudge: &str) -> Value {
    let bump = |v: Value, name: &str| {
        if name == nudge {
            v.set_data(v.data() + h);
        }
        v
    };
    let a = bump(Value::new(2.0), "a");
    let b = bump(Value::new(-3.0), "b");
    let c = bump(Value::new(10.0), "c");
    let e = bump(&a * &b, "e");
    let d = bump(&e + &c, "d");
    let f = bump(Value::new(-2.0), "f");
    &d * &f
}

/// The lecture's neuron, backpropagated node by node, then with `backward()`.
fn neuron() -> Value {
    println!();
    // x1 = Value(2.0, label='x1'); x2 = Value(0.0, label='x2')
    let x1 = Value::new(2.0).with_label("x1");
    let x2 = Value::new(0.0).with_label("x2");
    // w1 = Value(-3.0, label='w1'); w2 = Value(1.0, label='w2')
    let w1 = Value::new(-3.0).with_label("w1");
    let w2 = Value::new(1.0).with_label("w2");
    // b = Value(6.8813735870195432, label='b')
    let b = Value::new(6.881_373_587_019_543).with_label("b");
    // x1w1 = x1*w1; x2w2 = x2*w2; x1w1x2w2 = x1w1 + x2w2; n = x1w1x2w2 + b
    let x1w1 = (&x1 * &w1).with_label("x1*w1");
    let x2w2 = (&x2 * &w2).with_label("x2*w2");
    let x1w1x2w2 = (&x1w1 + &x2w2).with_label("x1*w1 + x2*w2");
    let n = (&x1w1x2w2 + &b).with_label("n");
    // o = n.tanh(); o.label = 'o'
    let o = n.tanh().with_label("o");
    println!("o = {o}");

    // o.grad = 1.0; o._backward(); n._backward(); b._backward(); x1w1x2w2._backward();
    // x2w2._backward(); x1w1._backward()
    o.set_grad(1.0);
    for node in [&o, &n, &b, &x1w1x2w2, &x2w2, &x1w1] {
        node.backward_step();
        println!(
            "{:>15}._backward()  ->  its grad was {}",
            label(node),
            node.grad()
        );
    }
    let leaves = [&x1, &w1, &x2, &w2];
    let show = |how: &str| {
        let grads = leaves.map(|v| format!("{}.grad = {}", label(v), v.grad()));
        println!("{how}: {}", grads.join(", "));
    };
    show("node by node");

    // topo = []; build_topo(o); o.grad = 1.0; for node in reversed(topo): node._backward()
    o.zero_grad_graph();
    o.set_grad(1.0);
    let topo = o.topo();
    let order: Vec<String> = topo.iter().map(label).collect();
    println!("topo: {}", order.join(", "));
    for node in topo.iter().rev() {
        node.backward_step();
    }
    show("reversed(topo)");

    // o.backward()
    o.zero_grad_graph();
    o.backward();
    show("o.backward()  ");
    o
}

/// The lecture's `tanh`, written as your own op with its own backward rule.
fn your_own_tanh() {
    // def tanh(self): x = self.data; t = (math.exp(2*x) - 1)/(math.exp(2*x) + 1)
    //     out = Value(t, (self, ), 'tanh')
    //     def _backward(): self.grad += (1 - t**2) * out.grad
    let n = Value::new(0.881_373_587_019_543_2).with_label("n");
    let o = Value::custom(
        "tanh",
        &[&n],
        |p| ((2.0 * p[0]).exp() - 1.0) / ((2.0 * p[0]).exp() + 1.0),
        |_p, t, d| d[0] = 1.0 - t * t,
    );
    o.backward();
    println!("tanh as your own op:  o = {o}, n.grad = {}", n.grad());
}

/// `tanh` re-written from `exp`, `-`, `+` and `/`: a bigger graph, the same gradients.
fn tanh_from_exp() {
    let x1 = Value::new(2.0).with_label("x1");
    let x2 = Value::new(0.0).with_label("x2");
    let w1 = Value::new(-3.0).with_label("w1");
    let w2 = Value::new(1.0).with_label("w2");
    let b = Value::new(6.881_373_587_019_543).with_label("b");
    let n = &x1 * &w1 + &x2 * &w2 + &b;
    // e = (2*n).exp(); o = (e - 1) / (e + 1)
    let e = (2.0 * &n).exp();
    let o = (&e - 1.0) / (&e + 1.0);
    o.backward();
    println!("tanh from exp:        o = {o}, {} nodes", o.topo().len());
    let grads = [&x1, &w1, &x2, &w2].map(|v| format!("{}.grad = {}", label(v), v.grad()));
    println!("tanh from exp: {}", grads.join(", "));
}

fn label(v: &Value) -> String {
    v.label().unwrap_or_default()
}
