//! Deferred weight gradients: a chunk's samples add their layer weights' gradients
//! once, at the end of the chunk, instead of one sample after the other.
//!
//! In a batch (see `src/tape/parallel.rs`), a worker runs the samples of a chunk one
//! after the other and sums their leaves' gradients from 0, as `accumulate` does. For
//! MNIST's hidden layer that means that every sample reads and writes all 25,088 weight
//! gradients (200 KB) once more, to add one product to each: the memory traffic that
//! sets the speed of a batch, on one thread and more so on two.
//!
//! A weight that gets **one** gradient contribution per sample (it is a first factor of
//! one layer's run and appears nowhere else in the program: the graph states it) gets,
//! over a chunk, the sum `((g + y₀ z₀) + y₁ z₁) + ..`, where `y_s` is its input and
//! `z_s` its neuron's gradient in sample `s` (skipping the samples where `z_s` is 0, as
//! the backward pass skips a neuron whose ReLU is off). Nothing reads a leaf's
//! gradient during a backward pass, so these additions may wait: each sample's
//! backward pass *records* the layer's inputs and its neurons' gradients ([`Lanes`]),
//! and at the end of the chunk [`Program::add_deferred`] makes the same additions, in
//! the same order, for each weight: the same bits, with each weight's gradient read and
//! written once per chunk (its row stays in the cache while the samples are added). On
//! several threads the chunk hands its records on instead, and each block of leaves
//! that adds the chunks' sums up makes those of its weights from them (`add_parts` in
//! `src/tape/parallel.rs`).
//!
//! The recorded numbers are those of the samples' own passes, so an error is no
//! different: but which sample it belongs to is known only at the end of the chunk. So
//! on any error, or a non-finite sum at the end, the runner runs the chunk again
//! without deferring, and that run's result (error or not) is the chunk's (see
//! `Job::run`). On several threads the whole round runs again so, one chunk after the
//! other, and the first error of that run is the round's; a run that then finds none
//! is reported as a bug of the tape (a deferred sum is the sum that run makes, and it
//! looks at every gradient it writes).

use std::ops::Range;

use super::{Program, Run};

/// The numbers a worker's backward passes record for the deferred layers
/// ([`Layer::deferred`](super::Layer::deferred)) of the samples of one chunk: for each
/// such layer, each sample's inputs to it and its neurons' gradients.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    /// Which sample of the chunk the next backward pass records.
    pub(crate) lane: usize,
    /// How many samples it has room for.
    samples: usize,
    /// The deferred layers, in program order.
    layers: Vec<Recorded>,
    /// The leaves whose gradients are not deferred, as ranges (in order).
    immediate: Vec<Range<usize>>,
    /// The leaves the samples fill, as last given to [`Lanes::feed`].
    fed_nodes: Vec<u32>,
}

/// What [`Lanes`] keeps of one deferred layer.
#[derive(Debug)]
struct Recorded {
    /// The layer's first node.
    first: u32,
    /// Its input nodes.
    input_nodes: Range<usize>,
    /// `Some(p)` if its inputs are leaves a sample fills, one after the other from
    /// position `p` of the sample: they are then read from the samples, not copied.
    fed: Option<usize>,
    /// Its inputs, sample after sample (unless `fed`; made at the first sample that
    /// records them, so that a layer whose inputs the samples fill takes no room).
    inputs: Vec<f64>,
    /// Its neurons' gradients (after the activation's local derivative), sample after
    /// sample.
    grads: Vec<f64>,
}

impl Lanes {
    /// Room for `samples` samples of `program`'s deferred layers (none if it has none).
    pub(crate) fn new(program: &Program, samples: usize) -> Lanes {
        let deferred = program.layers.iter().filter(|l| l.deferred);
        let layers = (deferred.clone())
            .map(|l| {
                let run = program.weights(l.first as usize);
                Recorded {
                    first: l.first,
                    input_nodes: run.ys(),
                    fed: None,
                    inputs: Vec::new(),
                    grads: vec![0.0; samples * l.width as usize],
                }
            })
            .collect();
        // The deferred weights' ranges, in order; the leaves between them are the others.
        let mut weights: Vec<Range<usize>> = deferred
            .flat_map(|l| l.nodes().map(|k| program.weights(k).xs()))
            .collect();
        weights.sort_by_key(|r| r.start);
        let mut immediate = Vec::new();
        let mut at = 0;
        for r in weights.iter().chain([&(program.leaves..program.leaves)]) {
            if at < r.start {
                immediate.push(at..r.start);
            }
            at = at.max(r.end);
        }
        Lanes {
            lane: 0,
            samples,
            layers,
            immediate,
            fed_nodes: Vec::new(),
        }
    }

    /// The leaves whose gradients are not deferred, as ranges, in order.
    pub(crate) fn immediate(&self) -> &[Range<usize>] {
        &self.immediate
    }

    /// Whether there is anything to defer.
    pub(crate) fn any(&self) -> bool {
        !self.layers.is_empty()
    }

    /// Notes which deferred layers' inputs the samples fill, a sample filling the
    /// leaves `nodes` with its numbers in order: those whose input nodes are, each
    /// once, a stretch of `nodes`.
    pub(crate) fn feed(&mut self, nodes: &[u32]) {
        if self.fed_nodes == nodes {
            return;
        }
        self.fed_nodes = nodes.to_vec();
        for layer in &mut self.layers {
            let ys = &layer.input_nodes;
            let is_input = |k: &u32| ys.contains(&(*k as usize));
            let at = nodes.iter().position(|&k| k as usize == ys.start);
            layer.fed = at.filter(|&p| {
                let stretch = (nodes.get(p..p + ys.len()))
                    .is_some_and(|s| s.iter().zip(ys.clone()).all(|(&k, y)| k as usize == y));
                stretch && nodes.iter().filter(|k| is_input(k)).count() == ys.len()
            });
            if layer.fed.is_some() {
                layer.inputs = Vec::new();
            }
        }
    }

    /// Records the inputs `ys` (unless the samples fill them) and neuron gradients
    /// `sum_grads` of the deferred layer whose first node is `first`, for the current
    /// sample.
    pub(super) fn record(&mut self, first: u32, ys: &[f64], sum_grads: &[f64]) {
        let (n, width, lane) = (ys.len(), sum_grads.len(), self.lane);
        let layer = self.layers.iter_mut().find(|l| l.first == first);
        let layer = layer.expect("the sweep records the deferred layers only");
        if layer.fed.is_none() {
            if layer.inputs.is_empty() {
                layer.inputs = vec![0.0; self.samples * n];
            }
            layer.inputs[lane * n..][..n].copy_from_slice(ys);
        }
        layer.grads[lane * width..][..width].copy_from_slice(sum_grads);
    }
}

impl Program {
    /// The run of weights of sum `k` of a layer of neurons (its second run; the first is
    /// its bias).
    fn weights(&self, k: usize) -> Run {
        self.runs[self.args[k][0] as usize + 1]
    }

    /// Marks the layers whose weights' gradients a batch may defer
    /// ([`Layer::deferred`](super::Layer::deferred)): layers of neurons whose weights all
    /// need their gradients, are no constant the engine made, and get no other
    /// gradient contribution in the program than their term in this layer.
    /// `written[i]` is how many gradient contributions node `i` gets in a backward pass
    /// ([`gradient_writes`](Program::gradient_writes)).
    pub(super) fn plan_deferred(&mut self, written: &[u32]) {
        let mut frozen = vec![false; self.steps.len()];
        for &i in &self.frozen {
            frozen[i as usize] = true;
        }
        let mut layers = std::mem::take(&mut self.layers);
        for layer in layers.iter_mut().filter(|l| l.neurons) {
            layer.deferred = layer.nodes().all(|k| {
                let a = self.args[k][0] as usize;
                let run = self.runs[a + 1];
                let ok = |i: usize| written[i] == 1 && !frozen[i] && !self.hidden[i];
                self.run_grads[a + 1] & 1 != 0 && run.xs().all(ok)
            });
        }
        self.layers = layers;
    }

    /// Defers no more the layers one of whose weights is among `late` (leaves frozen
    /// after compiling): their chunk sums would add into those leaves, which get
    /// nothing. Returns whether any layer was deferred before.
    pub(super) fn undefer(&mut self, late: &[u32]) -> bool {
        let mut layers = std::mem::take(&mut self.layers);
        let mut changed = false;
        for layer in layers.iter_mut().filter(|l| l.deferred) {
            let mut weights = layer.nodes().flat_map(|k| self.weights(k).xs());
            if weights.any(|i| late.binary_search(&(i as u32)).is_ok()) {
                layer.deferred = false;
                changed = true;
            }
        }
        self.layers = layers;
        changed
    }

    /// The deferred weight gradients of the `samples` recorded in `lanes` (the samples
    /// of a chunk, whose numbers fill the leaves last given to [`Lanes::feed`]), for
    /// the leaves from `first` on that `to` covers (a block of the leaves, or all of
    /// them from 0): for each weight among them, its chunk sum from 0, sample after
    /// sample `+ y * z` where its neuron's gradient `z` is not 0 (as each sample's
    /// backward pass would have added it), stored into `to` (or, with `add`, added into
    /// `to`, as the chunk sums are added into the tape's). Returns whether every chunk
    /// sum is finite. (A weight's sum does not depend on the block: the blocks may
    /// split a neuron's weights anywhere.)
    pub(crate) fn add_deferred<S: AsRef<[f64]>>(
        &self,
        lanes: &Lanes,
        samples: &[S],
        (first, to): (usize, &mut [f64]),
        add: bool,
    ) -> bool {
        let mut check = [0.0; LANES];
        let block = first..first + to.len();
        let deferred = self.layers.iter().filter(|l| l.deferred);
        for (layer, recorded) in deferred.zip(&lanes.layers) {
            let (width, grads) = (layer.width as usize, &recorded.grads);
            for (j, k) in layer.nodes().enumerate() {
                let run = self.weights(k);
                // The neuron's weights in the block: terms `a..b` of its run.
                let a = block
                    .start
                    .max(run.x as usize)
                    .saturating_sub(run.x as usize);
                let b = block.end.min(run.xs().end).saturating_sub(run.x as usize);
                if a >= b {
                    continue;
                }
                let n = run.len as usize;
                // Sample `s`'s inputs `a..b` to the neuron.
                let input = |s: usize| match recorded.fed {
                    Some(p) => &samples[s].as_ref()[p + a..p + b],
                    None => &recorded.inputs[s * n + a..s * n + b],
                };
                // The samples whose neuron `j` has a gradient, in order: their inputs and
                // that gradient.
                let mut active = [(&[][..], 0.0); MAX_SAMPLES];
                let mut count = 0;
                for s in 0..samples.len() {
                    let z = grads[s * width + j];
                    if z != 0.0 {
                        active[count] = (input(s), z);
                        count += 1;
                    }
                }
                let row = run.x as usize + a - first..run.x as usize + b - first;
                chunk_sums(&mut to[row], &active[..count], add, &mut check);
            }
        }
        check.iter().all(|c| c.is_finite())
    }
}

/// How many weights [`chunk_sums`] takes at once: enough independent chains of
/// additions to keep the processor busy while each waits for its last addition.
const LANES: usize = 8;

/// The most samples [`Program::add_deferred`] adds at once: a chunk's
/// ([`CHUNK`](crate::tape::CHUNK)).
const MAX_SAMPLES: usize = super::CHUNK;

/// For every `t`, the sum from 0 of `x[t] * z` for each `(x, z)` of `samples`, one
/// after the other, into `row[t]` (or, with `add`, added to it): each sum is made in a
/// register, and `row` read and written once. `check` gets `sum * 0.0` added for each
/// sum: 0 while all are finite, NaN after any other (exact, unlike a sum of the sums,
/// which could overflow).
#[inline]
fn chunk_sums(row: &mut [f64], samples: &[(&[f64], f64)], add: bool, check: &mut [f64; LANES]) {
    let (rows, rest) = row.as_chunks_mut::<LANES>();
    for (c, r) in rows.iter_mut().enumerate() {
        let mut acc = [0.0; LANES];
        for &(x, z) in samples {
            let x = &x[c * LANES..][..LANES];
            acc = std::array::from_fn(|i| acc[i] + x[i] * z);
        }
        *check = std::array::from_fn(|i| check[i] + acc[i] * 0.0);
        *r = match add {
            true => std::array::from_fn(|i| r[i] + acc[i]),
            false => acc,
        };
    }
    let at = rows.len() * LANES;
    for (t, r) in rest.iter_mut().enumerate() {
        let acc = samples.iter().fold(0.0, |acc, &(x, z)| acc + x[at + t] * z);
        check[0] += acc * 0.0;
        *r = if add { *r + acc } else { acc };
    }
}
