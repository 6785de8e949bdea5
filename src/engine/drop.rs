//! Freeing a graph without recursion.
//!
//! Python's garbage collector frees a graph for us. With `Rc`, dropping the last handle
//! to a node drops its parents, which drop theirs, and so on: one nested call per node,
//! which overflows the stack on a long chain. Instead, a node being freed moves its
//! parents onto an explicit stack; each parent whose last handle that was is opened in
//! turn (`Rc::try_unwrap`) and its own parents moved onto the stack, so every node is
//! freed at the same, constant stack depth.

use std::rc::Rc;

use super::value::{Node, Parents, Value};

impl Drop for Node {
    fn drop(&mut self) {
        if let Parents::None = self.parents {
            // (A leaf, or a node the loop below has emptied.)
            return;
        }
        let mut stack: Vec<Value> = Vec::new();
        push_parents(&mut stack, self.parents.take());
        while let Some(value) = stack.pop() {
            // Only the last handle to a node can open it; any other handle just drops.
            if let Ok(cell) = Rc::try_unwrap(value.0) {
                let mut node = cell.into_inner();
                push_parents(&mut stack, node.parents.take());
                // `node` is dropped here with no parents left: no recursion.
            }
        }
    }
}

fn push_parents(stack: &mut Vec<Value>, parents: Parents) {
    match parents {
        Parents::None => {}
        Parents::One([a]) | Parents::Constant([a], _, _) => push_if_last(stack, a),
        Parents::Two([a, b]) => {
            push_if_last(stack, a);
            push_if_last(stack, b);
        }
        Parents::Many(terms) => {
            for t in terms.into_vec() {
                push_if_last(stack, t);
            }
        }
        // A neuron's shared lists: opened only by the last node holding them.
        Parents::Neuron(params, inputs) => {
            if let Ok(params) = Rc::try_unwrap(params) {
                for v in params.values.into_vec() {
                    push_if_last(stack, v);
                }
            }
            if let Ok(inputs) = Rc::try_unwrap(inputs) {
                for v in inputs.values {
                    push_if_last(stack, v);
                }
            }
        }
    }
}

/// Pushes `v` if it is the last handle to its node (which must then be opened without
/// recursion); any other handle is dropped at once, which frees nothing. (A model's
/// parameters, used by every sample, never go through the stack: measured with
/// callgrind: 2.8% fewer instructions for the moons demo step, 29.0M -> 28.2M for 3 steps.)
fn push_if_last(stack: &mut Vec<Value>, v: Value) {
    if Rc::strong_count(&v.0) == 1 {
        stack.push(v);
    }
}
