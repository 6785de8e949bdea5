//! The exercises, in the order of the lecture: each one's file stem, what it teaches,
//! the moment of the lecture it follows, and a hint that does not give the answer.

/// One exercise: `yours/{name}.rs`, `solutions/{name}.rs` and `tests/{name}.rs`.
pub struct Exercise {
    /// The file stem, `NN_name`, also the name of its test program.
    pub name: &'static str,
    /// What it teaches, in a line.
    pub title: &'static str,
    /// The chapter of the lecture it follows ("The spelled-out intro to neural
    /// networks and backpropagation: building micrograd"), with its start.
    pub lecture: &'static str,
    /// A nudge in the right direction.
    pub hint: &'static str,
}

/// Every exercise, in order.
pub const EXERCISES: &[Exercise] = &[
    Exercise {
        name: "01_derivative",
        title: "the slope of a function, by nudging its input",
        lecture: "0:08:08, derivative of a simple function with one input",
        hint: "How much f moves is f(x + h) − f(x). Dividing by h makes it per unit of x.",
    },
    Exercise {
        name: "02_local_derivatives",
        title: "the local derivatives of + and *",
        lecture: "0:14:12, derivative of a function with multiple inputs",
        hint: "Nudge a by h: a + b grows by exactly h; a * b grows by (a + h)·b − a·b. \
               Divide each by h.",
    },
    Exercise {
        name: "03_backprop_by_hand",
        title: "L = (a*b + c) * f, backpropagated by hand with set_grad",
        lecture: "0:32:10, manual backpropagation example #1: simple expression",
        hint: "One step back at a time. L = d * f: the grad of each factor is the other \
               factor's data times L's grad. A + hands the grad it gets to both operands.",
    },
    Exercise {
        name: "04_neuron_by_hand",
        title: "a neuron's gradients, node by node",
        lecture: "0:52:52, manual backpropagation example #2: a neuron",
        hint: "Only the first step is new: n's grad is (1 − o.data()²) times o's grad. \
               After it, every node is a + or a *, as in exercise 03.",
    },
    Exercise {
        name: "05_tanh_op",
        title: "tanh as your own op, called as a method (an extension trait)",
        lecture: "1:09:02, implementing the backward function for each operation",
        hint: "The first closure gets p, the parents' data, and returns tanh of p[0]. The \
               second gets out, which is already tanh(x): the derivative is a formula in out.",
    },
    Exercise {
        name: "06_tanh_from_exp",
        title: "tanh from exp and division",
        lecture: "1:27:05, breaking up a tanh, exercising with more operations",
        hint: "Name the piece used twice: let e = (2.0 * n).exp(); then the numerator and \
               the denominator each use &e with a number.",
    },
    Exercise {
        name: "07_topological_order",
        title: "the topological order, with a loop instead of recursion",
        lecture: "1:17:32, implementing the backward function for a whole expression graph",
        hint: "Keep a Vec<(Value, usize)>: a node and how many of its parents you have looked \
               at. Look at the top: while it has a parent left, push that parent (unless \
               visited); when it has none left, pop it into the order.",
    },
    Exercise {
        name: "08_backward",
        title: "backward() from the order and backward_step",
        lecture: "1:17:32, implementing the backward function for a whole expression graph",
        hint: "root.topo() lists the nodes parents first; .iter().rev() walks it from the \
               root. The root's own grad is where everything starts.",
    },
    Exercise {
        name: "09_reused_nodes",
        title: "the += that a value used twice needs",
        lecture: "1:22:28, fixing a backprop bug when one node is used multiple times",
        hint: "set_grad replaces a grad; add_grad adds to it. When two paths lead to one \
               value, which does the chain rule need?",
    },
    Exercise {
        name: "10_neuron",
        title: "a Neuron from Values",
        lecture: "1:43:55, building out a neural net library (multi-layer perceptron)",
        hint: "Zip the weights with the inputs, multiply each pair, sum them into a Value, \
               add the bias, then .tanh(). For parameters, clone the weights and push the bias.",
    },
    Exercise {
        name: "11_layer",
        title: "a Layer of neurons",
        lecture: "1:43:55, building out a neural net library (multi-layer perceptron)",
        hint: "(0..nout).map(|_| ..).collect() makes the neurons. An iterator of \
               Result<Value, Error> collects into a Result<Vec<Value>, Error>.",
    },
    Exercise {
        name: "12_mlp",
        title: "an MLP of layers",
        lecture: "1:43:55, building out a neural net library (multi-layer perceptron)",
        hint: "The sizes are nin, then each of nouts; layer i goes from size i to size i + 1 \
               (slice.windows(2) gives the pairs). In forward, replace x by each layer's output.",
    },
    Exercise {
        name: "13_mse_loss",
        title: "the squared-error loss",
        lecture: "1:51:04, creating a tiny dataset, writing the loss function",
        hint: "(yout - ygt) works on a (&f64, &Value) pair from zip; .powi(2) squares, and \
               .sum::<Value>() adds the terms into one Value.",
    },
    Exercise {
        name: "14_training_loop",
        title: "the training loop on the lecture's four points",
        lecture: "2:01:12, doing gradient descent optimization manually, training the network",
        hint: "Each round: a prediction per sample, the loss, backward(), then every \
               parameter moves by −lr times its grad (set_data).",
    },
    Exercise {
        name: "15_zero_grad",
        title: "zero_grad, and why",
        lecture: "2:01:12, doing gradient descent optimization manually (the forgotten zero_grad)",
        hint: "The grads of the last step are still in the parameters when this step's \
               backward() adds to them.",
    },
    Exercise {
        name: "16_moons",
        title: "the moons: hinge loss + L2 to 100%",
        lecture: "2:16:46, walkthrough of the full code of micrograd on github (demo.ipynb)",
        hint: "Score each point with model.forward_f64(x)?[0]. A point's hinge is \
               (1.0 + -y * score).relu(); average with * (1.0 / n as f64); add 1e-4 times \
               the sum of p * p. The learning rate changes every round.",
    },
];
