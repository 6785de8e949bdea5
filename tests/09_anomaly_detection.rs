//! Lesson 9: finding where a NaN or infinity came from.
//!
//! In Python (and with `backward()` here) a NaN spreads silently through every value
//! and gradient. `try_backward()` checks as it goes and names the op that made it.

use micrograd::{Error, Pass, Value};

fn non_finite(err: Error) -> (Pass, &'static str, Option<String>) {
    match err {
        Error::NonFinite {
            pass, op, label, ..
        } => (pass, op, label),
        other => panic!("expected Error::NonFinite, got {other}"),
    }
}

#[test]
fn a_nan_made_in_the_forward_pass_is_named_and_nothing_is_spread() {
    let x = Value::new(-2.0).with_label("x");
    let y = x.sqrt().with_label("root"); // sqrt(-2) = NaN
    let z = &y * 3.0 + &x;
    let err = z.try_backward().unwrap_err();
    assert!(
        err.to_string()
            .contains("forward pass: op `sqrt` (label \"root\")"),
        "{err}"
    );
    assert_eq!(
        non_finite(err),
        (Pass::Forward, "sqrt", Some("root".into()))
    );
    assert_eq!(x.grad(), 0.0, "no backward rule ran");
}

#[test]
fn an_infinity_made_in_the_backward_pass_is_named() {
    // sqrt(0) = 0 is fine going forward; its derivative 1 / (2 * sqrt(0)) is not.
    let x = Value::new(0.0).with_label("x");
    let y = x.sqrt().with_label("y");
    let err = y.try_backward().unwrap_err();
    assert_eq!(non_finite(err), (Pass::Backward, "sqrt", Some("y".into())));
}

#[test]
fn a_non_finite_leaf_is_reported_as_a_leaf() {
    let x = Value::new(f64::INFINITY).with_label("input");
    let y = &x * 0.5;
    assert_eq!(
        non_finite(y.try_backward().unwrap_err()),
        (Pass::Forward, "", Some("input".into()))
    );
}

// The message says what holds the NaN: a leaf has no op (`op` is ""), and "op ``
// produced NaN; check this op's inputs" named nothing and pointed at inputs it has not.
#[test]
fn the_message_for_a_non_finite_leaf_names_the_leaf_not_an_empty_op() {
    let x = Value::new(f64::NAN).with_label("input");
    let msg = (&x * 0.5).try_backward().unwrap_err().to_string();
    assert!(!msg.contains("op ``"), "{msg}");
    assert!(
        msg.starts_with("forward pass: the leaf (label \"input\") holds NaN"),
        "{msg}"
    );
    let msg = (f64::INFINITY * &Value::new(1.0))
        .try_backward()
        .unwrap_err()
        .to_string();
    assert!(
        msg.starts_with("forward pass: the leaf (no label) holds inf"),
        "{msg}"
    );
    assert!(msg.contains("f64 operand"), "{msg}");
}

#[test]
fn a_finite_graph_gives_the_same_gradients_as_backward() {
    let x = Value::new(1.5);
    let y = (&x * &x).tanh();
    y.try_backward().unwrap();
    let checked = x.grad();
    x.zero_grad();
    y.zero_grad_graph();
    y.backward();
    assert_eq!(x.grad(), checked);
}

// h = x*1; (h-3).ln()  -> nan;  then (h*3).backward()  ->  x.grad == 3
#[test]
fn after_an_error_the_graph_can_still_be_used() {
    let x = Value::new(1.0);
    let h = &x * 1.0; // an inner node shared by both expressions below
    assert!((&h - 3.0).ln().try_backward().is_err()); // ln(-2) is NaN
    assert_eq!(x.grad(), 0.0, "the failed pass spread nothing");
    // The failed pass left every node ready for the next one: `h` runs its rule again.
    (&h * 3.0).backward();
    assert_eq!(x.grad(), 3.0);
}

// x = Value(nan); y = x * inf; z = inf * x  -- Python makes a leaf of each number, and
// a non-finite one is reported as that leaf (label None), in the order Python's graph
// lists the parents: x before the constant in `x * inf`, after it in `inf * x`
#[test]
fn a_non_finite_f64_operand_is_reported_as_the_leaf_python_makes_of_it() {
    let x = Value::new(f64::NAN).with_label("x");
    let err = (&x * f64::INFINITY).try_backward().unwrap_err();
    assert_eq!(non_finite(err), (Pass::Forward, "", Some("x".into())));
    let err = (f64::INFINITY * &x).try_backward().unwrap_err();
    assert_eq!(non_finite(err), (Pass::Forward, "", None));
    let y = Value::new(1.0);
    let err = (1.0 - (&y / f64::NAN)).try_backward().unwrap_err();
    assert!(err.to_string().contains("NaN"), "{err}");
    assert_eq!(non_finite(err), (Pass::Forward, "", None));
}

// Python: y = x ** float('nan') -- the exponent is the op's own number, not a leaf as
// an operand of `*` is: the `**` node made the NaN.
#[test]
fn a_non_finite_exponent_is_reported_as_the_power_that_made_it() {
    let x = Value::new(2.0).with_label("x");
    let err = x.powf(f64::NAN).with_label("y").try_backward().unwrap_err();
    assert_eq!(non_finite(err), (Pass::Forward, "**", Some("y".into())));
}

// The 0.0 in `0.0 * &big` is a constant the engine made: no one holds it, so an
// overflow in its gradient alone is no error; every gradient you can read is finite.
// The tape agrees.
#[test]
fn an_overflow_only_in_a_hidden_constants_gradient_is_not_reported() {
    let big = Value::new(1e150).with_label("big");
    let y = (0.0 * &big) * &big * &big;
    y.try_backward().unwrap();
    assert_eq!(big.grad(), 0.0);
    let hidden = &y.parents()[0].parents()[0].parents()[0];
    assert_eq!(hidden.grad(), f64::INFINITY);
    let mut tape = micrograd::tape::Tape::compile(&y).unwrap();
    tape.forward().unwrap();
    tape.backward().unwrap();
    // The same overflow on a value the user holds is reported.
    let zero = Value::new(0.0).with_label("zero");
    let y = (&zero * &big) * &big * &big;
    let err = y.try_backward().unwrap_err();
    assert_eq!(non_finite(err).0, Pass::Backward);
    let mut tape = micrograd::tape::Tape::compile(&y).unwrap();
    assert!(tape.backward().is_err());
}

// root = s * (k * m) + (1e-300 * x) * s: the constant's gradient overflows first (its
// node's rule runs before km's), then m's. The constant's is no error, so the one
// reported is m's, made by km's rule; the tape, which then differentiates its graph
// again to name the culprit, names the same one.
#[test]
fn the_tape_names_the_graphs_culprit_past_an_overflow_in_a_constants_gradient() {
    let [s, k, m, x] = [1e200, 1e200, 1e-200, 1e200].map(Value::new);
    let km = (&k * &m).with_label("km");
    let root = &s * &km + (1e-300 * &x) * &s;
    let mut tape = micrograd::tape::Tape::compile(&root).unwrap();
    let err = root.try_backward().unwrap_err();
    assert!(m.grad().is_infinite() && x.grad().is_finite());
    let expected = err.to_string();
    assert_eq!(non_finite(err), (Pass::Backward, "*", Some("km".into())));
    assert_eq!(tape.backward().unwrap_err().to_string(), expected);
}

// c = the 1e-300 in y = x * 1e-300, read and built on: root = c * w + y * s. The rule of
// y leaves inf on c (x * s) before the rule of c * w runs; c is still the leaf of an f64
// operand, whose gradient is not checked, also where another node reads it. The tape
// agrees.
#[test]
fn the_leaf_of_an_f64_operand_is_not_checked_where_it_is_read_further() {
    let [s, x, w] = [1e200, 1e200, 1.0].map(Value::new);
    let y = &x * 1e-300;
    let c = y.parents()[1].clone();
    let root = &c * &w + &y * &s;
    let mut tape = micrograd::tape::Tape::compile(&root).unwrap();
    root.try_backward().unwrap();
    assert!(c.grad().is_infinite() && x.grad().is_finite());
    tape.backward().unwrap();
}

// A value that needs no gradient keeps its grad: no rule adds to it, so a number the
// user left there is no rule's doing. The tape agrees.
#[test]
fn a_grad_left_on_a_value_that_needs_none_is_not_reported() {
    let x = Value::new(1.0).no_grad();
    x.set_grad(f64::INFINITY);
    let w = Value::new(2.0);
    let y = &w * &x;
    y.try_backward().unwrap();
    assert_eq!((w.grad(), x.grad()), (1.0, f64::INFINITY));
    let mut tape = micrograd::tape::Tape::compile(&y).unwrap();
    tape.backward().unwrap();
}

// n = Neuron(2); n.w[0].data = float('nan'); n(x).backward()   -- a model's weight that
// went NaN is a non-finite leaf: reported as that leaf, before any rule runs, also where
// the neuron is one node (`Value::neuron`, what `nn` builds) and by a tape of it
#[test]
fn a_nan_weight_of_a_neuron_is_reported_as_that_leaf() {
    use micrograd::nn::Activation;
    let b = Value::new(0.5);
    let w = [Value::new(f64::NAN).with_label("w0"), Value::new(1.0)];
    let x = [Value::new(1.0), Value::new(2.0)];
    for activation in [Activation::Linear, Activation::Tanh] {
        let y = Value::neuron(&b, &w, &x, activation).unwrap() * 2.0;
        let mut tape = micrograd::tape::Tape::compile(&y).unwrap();
        let tape_err = tape.forward().and_then(|_| tape.backward()).unwrap_err();
        let err = y.try_backward().unwrap_err();
        assert_eq!(tape_err.to_string(), err.to_string());
        assert_eq!(non_finite(err), (Pass::Forward, "", Some("w0".into())));
        assert_eq!(w[1].grad(), 0.0, "no backward rule ran");
    }
}

// w = [1e200, nan]; x = [1e200, 1.0]   -- Python's graph names its first value that is not
// finite, the `*` of w0*x0 (inf); a neuron node is one value, checked after all its
// weights and inputs: it names the NaN weight, or itself when every one is finite
#[test]
fn a_neuron_is_checked_as_one_value_after_its_weights_and_inputs() {
    use micrograd::nn::Activation;
    let b = Value::new(0.5);
    let x = [Value::new(1e200), Value::new(1.0)];
    for (w1, expected) in [(f64::NAN, ""), (1.0, "neuron")] {
        let w = [Value::new(1e200), Value::new(w1)];
        let y = Value::neuron(&b, &w, &x, Activation::Linear).unwrap();
        assert_eq!(non_finite(y.try_backward().unwrap_err()).1, expected);
        let python = &b + &w[0] * &x[0] + &w[1] * &x[1];
        assert_eq!(non_finite(python.try_backward().unwrap_err()).1, "*");
    }
}
