//! Lesson 1: a `Value` is a number that remembers how it was made.
//!
//! Python: `from micrograd.engine import Value`.

use micrograd::Value;

// a = Value(2.0)
#[test]
fn a_new_value_is_a_leaf_with_zero_grad() {
    let a = Value::new(2.0);
    assert_eq!(a.data(), 2.0);
    assert_eq!(a.grad(), 0.0);
    assert_eq!(a.op(), "");
    assert!(a.parents().is_empty());
}

// c = a * b  ->  c._op == '*', c._prev == {a, b}
#[test]
fn an_operation_records_its_op_and_parents() {
    let a = Value::new(2.0);
    let b = Value::new(-3.0);
    let c = &a * &b;
    assert_eq!(c.data(), -6.0);
    assert_eq!(c.op(), "*");
    let parents = c.parents();
    assert!(Value::ptr_eq(&parents[0], &a));
    assert!(Value::ptr_eq(&parents[1], &b));
}

// b = a  (a second Python name for the same object)
#[test]
fn clone_is_a_second_handle_to_the_same_node() {
    let a = Value::new(1.0);
    let b = a.clone();
    b.set_data(5.0);
    assert_eq!(a.data(), 5.0);
    assert!(Value::ptr_eq(&a, &b));
    assert!(!Value::ptr_eq(&a, &Value::new(5.0)));
}

// print(Value(-20.0))  ->  Value(data=-20.0, grad=0)   (Python's __repr__; its grad is
// the int 0 until a pass adds a float, here always an f64, printed as Python prints one)
#[test]
fn debug_prints_like_python_repr() {
    let v = Value::new(-20.0);
    assert_eq!(format!("{v:?}"), "Value(data=-20.0, grad=0.0)");
    let y = Value::new(1e-5).exp();
    y.backward();
    assert_eq!(
        format!("{y:?}"),
        format!("Value(data={}, grad=1.0)", 1e-5f64.exp())
    );
}

#[test]
fn from_f64_and_labels() {
    let x = Value::from(3.0).with_label("x");
    assert_eq!(x.data(), 3.0);
    assert_eq!(x.label().as_deref(), Some("x"));
    assert_eq!(Value::new(1.0).label(), None);
}

// e = a*b; e.label = 'e'   (a label given in place, seen through every handle)
#[test]
fn set_label_names_a_value_in_place() {
    let a = Value::new(2.0);
    let e = &a * 3.0;
    let same = e.clone();
    e.set_label("e");
    assert_eq!(same.label().as_deref(), Some("e"));
    e.set_label("e2");
    assert_eq!(e.label().as_deref(), Some("e2"));
    assert_eq!(a.label(), None);
}

// p.data += -lr * p.grad; p.grad = 0
#[test]
fn set_data_and_zero_grad_are_how_an_optimiser_updates() {
    let p = Value::new(1.0);
    (&p * 4.0).backward();
    p.set_data(p.data() - 0.1 * p.grad());
    p.zero_grad();
    assert_eq!(p.data(), 1.0 - 0.1 * 4.0);
    assert_eq!(p.grad(), 0.0);
}

// x.relu()._op == 'ReLU', (x**2)._op == '**2'  (Python's names; ours are below)
#[test]
fn every_method_names_its_op() {
    let x = Value::new(0.5);
    let ops = [
        (x.relu(), "relu"),
        (x.leaky_relu(0.01), "leaky_relu"),
        (x.tanh(), "tanh"),
        (x.sigmoid(), "sigmoid"),
        (x.exp(), "exp"),
        (x.ln(), "ln"),
        (x.powf(2.0), "**"),
        (x.pow(&x), "pow"),
        (x.sqrt(), "sqrt"),
        (x.abs(), "abs"),
        (-&x, "neg"),
        (&x + 1.0, "+"),
        (&x - 1.0, "-"),
        (&x * 1.0, "*"),
        (&x / 1.0, "/"),
        ([&x, &x].into_iter().sum(), "sum"),
    ];
    for (v, op) in ops {
        assert_eq!(v.op(), op);
    }
}
