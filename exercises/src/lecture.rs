//! The lecture's examples, as the exercises use them: `L = (a*b + c) * f` and the neuron
//! `o = tanh(x1*w1 + x2*w2 + b)` with every node a field, and the four samples the
//! training loop learns with the all-tanh `MLP(3, [4, 4, 1])`.

use micrograd::nn::{Activation, MLP};
use micrograd::random::PythonRandom;
use micrograd::Value;

/// The lecture's expression: a = 2, b = −3, c = 10, f = −2; e = a*b, d = e + c, L = d*f.
pub struct Expression {
    /// 2
    pub a: Value,
    /// −3
    pub b: Value,
    /// 10
    pub c: Value,
    /// a * b
    pub e: Value,
    /// e + c
    pub d: Value,
    /// −2
    pub f: Value,
    /// d * f, the root
    pub l: Value,
}

impl Expression {
    /// Builds the expression, each node labelled as in the lecture; every grad is 0.
    ///
    /// ```
    /// let x = micrograd_exercises::lecture::Expression::new();
    /// assert_eq!((x.l.data(), x.a.grad()), (-8.0, 0.0));
    /// ```
    pub fn new() -> Expression {
        let a = Value::new(2.0).with_label("a");
        let b = Value::new(-3.0).with_label("b");
        let c = Value::new(10.0).with_label("c");
        let e = (&a * &b).with_label("e");
        let d = (&e + &c).with_label("d");
        let f = Value::new(-2.0).with_label("f");
        let l = (&d * &f).with_label("L");
        Expression {
            a,
            b,
            c,
            e,
            d,
            f,
            l,
        }
    }
}

impl Default for Expression {
    fn default() -> Expression {
        Expression::new()
    }
}

/// The lecture's neuron, o = tanh(x1*w1 + x2*w2 + b), each node a field.
pub struct Neuron {
    /// The first input, 2.
    pub x1: Value,
    /// The second input, 0.
    pub x2: Value,
    /// The first weight, −3.
    pub w1: Value,
    /// The second weight, 1.
    pub w2: Value,
    /// The bias, 6.8813735870195432 (chosen so that o is 0.7071...).
    pub b: Value,
    /// x1 * w1
    pub x1w1: Value,
    /// x2 * w2
    pub x2w2: Value,
    /// x1w1 + x2w2
    pub x1w1x2w2: Value,
    /// x1w1x2w2 + b
    pub n: Value,
    /// tanh(n), the root
    pub o: Value,
}

impl Neuron {
    /// Builds the lecture's neuron, each node labelled; every grad is 0.
    ///
    /// ```
    /// let v = micrograd_exercises::lecture::Neuron::new();
    /// assert!((v.o.data() - 0.5f64.sqrt()).abs() < 1e-15);
    /// ```
    pub fn new() -> Neuron {
        let x1 = Value::new(2.0).with_label("x1");
        let x2 = Value::new(0.0).with_label("x2");
        let w1 = Value::new(-3.0).with_label("w1");
        let w2 = Value::new(1.0).with_label("w2");
        let b = Value::new(6.881_373_587_019_543).with_label("b");
        let x1w1 = (&x1 * &w1).with_label("x1*w1");
        let x2w2 = (&x2 * &w2).with_label("x2*w2");
        let x1w1x2w2 = (&x1w1 + &x2w2).with_label("x1*w1 + x2*w2");
        let n = (&x1w1x2w2 + &b).with_label("n");
        let o = n.tanh().with_label("o");
        Neuron {
            x1,
            x2,
            w1,
            w2,
            b,
            x1w1,
            x2w2,
            x1w1x2w2,
            n,
            o,
        }
    }
}

impl Default for Neuron {
    fn default() -> Neuron {
        Neuron::new()
    }
}

/// The lecture's four samples: `xs = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0,
/// 1.0], [1.0, 1.0, -1.0]]`.
pub const XS: [[f64; 3]; 4] = [
    [2.0, 3.0, -1.0],
    [3.0, -1.0, 0.5],
    [0.5, 1.0, 1.0],
    [1.0, 1.0, -1.0],
];

/// Their targets: `ys = [1.0, -1.0, -1.0, 1.0]`.
pub const YS: [f64; 4] = [1.0, -1.0, -1.0, 1.0];

/// The lecture's `MLP(3, [4, 4, 1])`, tanh in every layer, with the weights Python's
/// `random.seed(1337)` draws. (`MLP::new` is micrograd's `nn.py` network instead: ReLU
/// inside and a linear output, which does not fit targets of ±1 as well.)
pub fn tanh_mlp() -> MLP {
    let tanh = [
        (4, Activation::Tanh),
        (4, Activation::Tanh),
        (1, Activation::Tanh),
    ];
    MLP::with_activations(3, &tanh, &mut PythonRandom::seed(1337))
}

/// The loss of exercise 13, Σ (yout − ygt)² (its answer: finish 13 before reading it).
pub fn squared_error(ypred: &[Value], ys: &[f64]) -> Value {
    ys.iter()
        .zip(ypred)
        .map(|(ygt, yout)| (yout - ygt).powf(2.0))
        .sum()
}
