//! Your own op: a forward function and its local derivatives, given as two closures.
//!
//! This is the lecture's way of extending `Value`: in Python you write a method that
//! computes `out` and defines `out._backward`; here [`Value::custom`] takes the same two
//! pieces as closures. The engine keeps them, with the op's name, as the node's boxed
//! backward closure (a `Custom`), calls `forward` once to build the node, and calls
//! `local_grads` from that closure, which adds
//! `d out / d parent_i * out.grad` to each parent exactly as for a built-in op. A
//! compiled [`Tape`](crate::tape::Tape) keeps the closures and calls both again on new
//! leaf data.

use std::sync::Arc;

use super::inspect::Reader;
use super::ops::Backward;
use super::parents::Parents;
use super::value::{Node, Value};

/// A custom op's forward function: the parents' data → the node's data.
type ForwardFn = dyn Fn(&[f64]) -> f64 + Send + Sync;

/// A custom op's local derivatives: `(parents' data, out, d)` fills `d[i]` with
/// d out / d parent_i.
type LocalGradsFn = dyn Fn(&[f64], f64, &mut [f64]) + Send + Sync;

/// The name and the two closures of a [`Value::custom`] op. Cloning shares the closures.
#[derive(Clone)]
pub(crate) struct Custom {
    /// The op's name, shown by `op()`, `to_dot()` and in errors.
    pub(crate) name: &'static str,
    forward: Arc<ForwardFn>,
    local_grads: Arc<LocalGradsFn>,
}

impl Custom {
    /// The op's value from its parents' data.
    pub(crate) fn forward(&self, parents: &[f64]) -> f64 {
        (self.forward)(parents)
    }

    /// Fills `d` (one slot per parent, set to 0 first) with d out / d parent_i.
    pub(crate) fn local_grads(&self, parents: &[f64], out: f64, d: &mut [f64]) {
        d.fill(0.0);
        (self.local_grads)(parents, out, d);
    }
}

impl Value {
    /// Your own op: a node computed by `forward` from the data of `parents`, whose local
    /// derivatives are given by `local_grads`. This is Python's way of adding an op to
    /// `Value` (a method that computes `out` and defines `out._backward`), as a call.
    ///
    /// - `op` names the op: [`op`](Value::op) returns it, [`to_dot`](Value::to_dot)
    ///   draws it, and [`try_backward`](Value::try_backward) names it (with the node's
    ///   label) when it makes a NaN or infinity.
    /// - `forward(p)` gets the parents' data, `p[i] = parents[i].data()`, and returns
    ///   the node's data.
    /// - `local_grads(p, out, d)` gets the same `p`, the node's data `out`, and `d`,
    ///   one slot per parent, all 0.0 on entry. It writes `d[i] = d out / d parent_i`.
    ///   The engine then does `parents[i].grad += d[i] * out.grad` for every `i` (so a
    ///   parent given twice, `&[&x, &x]`, gets both contributions, as in Python).
    ///
    /// ```
    /// use micrograd::Value;
    /// // Python (lecture, with math.tanh for its formula of exp):
    /// //                    t = math.tanh(x); out = Value(t, (self,), 'tanh')
    /// //                    def _backward(): self.grad += (1 - t**2) * out.grad
    /// let n = Value::new(0.8814).with_label("n");
    /// let o = Value::custom(
    ///     "tanh",                                   // op name
    ///     &[&n],                                    // parents, any number
    ///     |p: &[f64]| p[0].tanh(),                  // forward: parents' data -> data
    ///     |_p: &[f64], out: f64, d: &mut [f64]| {   // d out / d parent_i
    ///         d[0] = 1.0 - out * out;
    ///     },
    /// );
    /// o.backward();
    /// assert_eq!(o.op(), "tanh");
    /// assert_eq!(o.data(), 0.8814f64.tanh());
    /// assert_eq!(n.grad(), 1.0 - o.data() * o.data());
    /// ```
    ///
    /// The closures must compute from their arguments alone: a compiled
    /// [`Tape`](crate::tape::Tape) calls them again on new leaf data, and gives the
    /// same numbers as this graph, bit for bit, only if they do.
    ///
    /// They must be `Send + Sync + 'static`, so they cannot capture a `Value`, even in a
    /// program with no threads: the tape that keeps them is `Send + Sync` and runs a
    /// batch's samples on several threads, while a `Value` is an `Rc` handle that one
    /// thread alone may touch (and a node holding its own operand would also tie the
    /// graph in a cycle). The compiler says so with E0277, ``Rc<RefCell<..>>` cannot be
    /// sent between threads safely``. What to write instead: make the value a parent,
    /// and read its data from `p` (then it gets its gradient too), or, for a number
    /// that never changes, capture the `f64` (`let k = scale.data();`).
    ///
    /// ```compile_fail
    /// # use micrograd::Value;
    /// let (x, scale) = (Value::new(0.5), Value::new(2.0));
    /// let y = Value::custom("scaled", &[&x], move |p| p[0] * scale.data(), |_p, _o, d| d[0] = 2.0);
    /// ```
    /// ```
    /// # use micrograd::Value;
    /// let (x, scale) = (Value::new(0.5), Value::new(2.0));
    /// let y = Value::custom(
    ///     "scaled",
    ///     &[&x, &scale],                  // the Value is a parent: its data is p[1]
    ///     |p| p[0] * p[1],
    ///     |p, _out, d| {
    ///         d[0] = p[1];
    ///         d[1] = p[0];
    ///     },
    /// );
    /// y.backward();
    /// assert_eq!((y.data(), x.grad(), scale.grad()), (1.0, 2.0, 0.5));
    /// ```
    ///
    /// To call your op as a method, `x.my_tanh()`, as Python's `def tanh(self)` in the
    /// class: `impl Value { .. }` outside this crate is E0116 ("cannot define inherent
    /// `impl` for a type outside of the crate where the type is defined"). Declare a
    /// trait of your own and implement it for `Value` (an extension trait); where the
    /// trait is in scope, its methods are `Value`'s.
    ///
    /// ```
    /// use micrograd::Value;
    ///
    /// pub trait MyOps {
    ///     /// tanh as my own op; d tanh(x)/dx = 1 - tanh(x)².
    ///     fn my_tanh(&self) -> Value;
    /// }
    ///
    /// impl MyOps for Value {
    ///     fn my_tanh(&self) -> Value {
    ///         Value::custom("tanh", &[self], |p| p[0].tanh(), |_p, t, d| d[0] = 1.0 - t * t)
    ///     }
    /// }
    ///
    /// let n = Value::new(0.8814);
    /// let o = n.my_tanh();
    /// o.backward();
    /// assert_eq!(n.grad(), 1.0 - o.data() * o.data());
    /// ```
    ///
    /// Derivative: whatever `local_grads` says; check it with
    /// [`check_gradients`](crate::engine::check_gradients).
    ///
    /// # Panics
    ///
    /// If `parents` is empty (a constant is a [`Value::new`]), or if a closure panics,
    /// for example by writing `d[i]` for `i >= parents.len()`. A panic in `local_grads`
    /// that you catch (`std::panic::catch_unwind`) stops that backward pass where it
    /// was and leaves the graph usable: the gradients added so far stay, and a later
    /// `backward()` through the same nodes runs every rule.
    #[must_use = "an op returns a new Value and leaves its parents unchanged"]
    pub fn custom<F, G>(op: &'static str, parents: &[&Value], forward: F, local_grads: G) -> Value
    where
        F: Fn(&[f64]) -> f64 + Send + Sync + 'static,
        G: Fn(&[f64], f64, &mut [f64]) + Send + Sync + 'static,
    {
        let custom = Custom {
            name: op,
            forward: Arc::new(forward),
            local_grads: Arc::new(local_grads),
        };
        let inputs: Vec<f64> = parents.iter().map(|p| p.data()).collect();
        let data = custom.forward(&inputs);
        let parents = match parents {
            [] => panic!(
                "Value::custom(\"{op}\", ..) has no parents: an op of nothing is a constant; \
                 use Value::new(..) for it"
            ),
            [a] => Parents::One([Value::clone(a)]),
            [a, b] => Parents::Two([Value::clone(a), Value::clone(b)]),
            _ => Parents::Many(parents.iter().map(|&p| p.clone()).collect()),
        };
        Value::from_op(data, parents, Box::new(custom))
    }
}

/// The backward closure of every custom node is its `Custom`: it gathers the parents'
/// data, asks the op for its local derivatives `d`, and does
/// `parent_i.grad += d[i] * out.grad`.
impl Backward for Custom {
    fn run(&self, out: &Node) {
        let parents = out.parents();
        let p: Vec<f64> = parents.iter().map(Value::data).collect();
        let mut d = vec![0.0; p.len()];
        self.local_grads(&p, out.data, &mut d);
        for (parent, di) in parents.iter().zip(&d) {
            parent.add_grad(di * out.grad);
        }
    }
}

/// A custom node's name is the one given to [`Value::custom`].
impl Reader for Custom {
    fn name(&self) -> &'static str {
        self.name
    }
}
