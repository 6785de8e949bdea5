//! C from a compiled [`Tape`]: train on a device with no Rust, no allocator, no runtime.
//!
//! [`CodeGen`] writes a tape's program as C99: a header (`name.h`: the functions and the
//! layout of one buffer of numbers) and a source file (`name.c`: forward, backward, the
//! SGD and Adam updates, and the parameters' values when the C was generated). The
//! caller owns the buffer (`static double buf[NAME_BUFFER_LEN];`: no `malloc`), and the C
//! needs nothing of the C library beyond `math.h`.
//!
//! The code grows with the tape's instructions, not with its nodes: a `sum` is one line
//! whose loops read a table of runs, a layer of a network one call, so MNIST's
//! 784-32-10 network is a few hundred lines (plus the table of its 25,450 initial
//! parameters).
//!
//! The arithmetic is the tape's, operation for operation, each op written with the
//! formulas of its Rust rule: compiled with `-ffp-contract=off` and without fast-math,
//! the `double` C gives the tape's values and gradients bit for bit, where the Rust and
//! the C call the same `libm` (`exp`, `log`, `tanh`, `pow`, ... are the platform's in
//! both; see `docs/codegen.md`). [`Precision::F32`] writes `float` C instead.
//!
//! ```
//! use micrograd::codegen::CodeGen;
//! use micrograd::{tape::Tape, Value};
//! let (w, x) = (Value::new(0.5), Value::new(0.0));
//! let loss = (&w * &x - 1.0).powf(2.0);
//! let tape = Tape::compile(&loss)?;
//! let c = CodeGen::new(&tape, "fit").input("x", &[x]).generate()?;
//! assert!(c.header.contains("typedef double fit_real;"));
//! assert!(c.header.contains("fit_real fit_forward(fit_real *buf);"));
//! assert!(c.header.contains("void fit_set_x(fit_real *buf, const fit_real *values);"));
//! assert!(c.source.contains("pow("));
//! # Ok::<(), micrograd::Error>(())
//! ```
//!
//! | file | what it holds |
//! |------|---------------|
//! | `mod.rs` | [`CodeGen`]: naming the inputs and parameters; [`CCode`] |
//! | `listing.rs` | the [`Program`](crate::program::Program)'s instructions as plain numbers |
//! | `plan.rs` | each leaf's role, which nodes need gradients, the buffer's layout |
//! | `ops.rs` | every op's formulas as C |
//! | `source.rs` | the C source: forward, backward, updates |
//! | `header.rs` | the C header |

mod header;
mod listing;
mod ops;
mod plan;
mod source;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use ops::Precision;

/// The flags to compile the generated C with (GCC's and Clang's spelling): C99 with
/// optimisation, no contraction of `a * b + c` into one FMA (which rounds once instead of
/// twice, and so changes the numbers; fast-math, which reorders them, is left off too),
/// and every warning an error: the generated C compiles without one.
///
/// ```
/// use micrograd::codegen::C_FLAGS;
/// assert!(C_FLAGS.contains(&"-ffp-contract=off"));
/// // e.g. std::process::Command::new("cc").args(C_FLAGS).args(["-c", "fit.c"])
/// ```
pub const C_FLAGS: &[&str] = &[
    "-std=c99",
    "-O2",
    "-ffp-contract=off",
    "-Wall",
    "-Wextra",
    "-Werror",
];

use crate::engine::address::AddressMap;
use crate::engine::Value;
use crate::error::Error;
use crate::tape::Tape;
use listing::Instruction;
use plan::Role;

/// Writes a compiled [`Tape`] as C: name its inputs ([`input`](CodeGen::input)), maybe
/// its parameters ([`parameters`](CodeGen::parameters)) and the precision, then
/// [`generate`](CodeGen::generate).
///
/// Every leaf of the tape is one of:
/// - an **input**, a number the C program writes before each run (a sample), named in
///   groups: `.input("image", &pixels)` gives `void name_set_image(name_real *buf,
///   const name_real *values)`;
/// - a **parameter**, trained by `name_sgd` and `name_adam`: by default every leaf that
///   is not an input, not a constant the engine made for an `f64` operand (`&x * 2.0`)
///   and not a leaf that needs no gradient ([`Value::no_grad`]);
/// - a **constant**: the rest, fixed at the value it has now.
#[derive(Clone, Debug)]
pub struct CodeGen<'t> {
    tape: &'t Tape,
    name: String,
    inputs: Vec<(String, Vec<Value>)>,
    params: Option<Vec<Value>>,
    precision: Precision,
}

/// The generated C: [`header`](CCode::header) for `name.h`, [`source`](CCode::source) for
/// `name.c`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CCode {
    /// The name given to [`CodeGen::new`]: the files' names and the functions' prefix.
    pub name: String,
    /// `name.h`: the buffer's layout and the functions.
    pub header: String,
    /// `name.c`: the functions, and the leaves' values at generation time.
    pub source: String,
}

impl<'t> CodeGen<'t> {
    /// C for `tape`, with files `name.h` and `name.c` and functions `name_forward`, ...:
    /// `name` must be a C identifier (checked by [`generate`](CodeGen::generate)).
    pub fn new(tape: &'t Tape, name: &str) -> CodeGen<'t> {
        CodeGen {
            tape,
            name: name.to_owned(),
            inputs: Vec::new(),
            params: None,
            precision: Precision::F64,
        }
    }

    /// Names a group of input leaves: the C gets `name_set_<group>(buf, values)`, which
    /// writes `values[i]` into `leaves[i]`, and `NAME_<GROUP>_LEN`.
    pub fn input(mut self, group: &str, leaves: &[Value]) -> CodeGen<'t> {
        self.inputs.push((group.to_owned(), leaves.to_vec()));
        self
    }

    /// The parameters that `name_sgd` and `name_adam` train, in the order of
    /// `name_get_params` and `name_set_params` (a model's
    /// [`parameters`](crate::nn::Module::parameters)). Without it: every leaf that is
    /// neither an input, nor a constant the engine made for an `f64` operand, nor a leaf
    /// that needs no gradient, in the tape's order.
    pub fn parameters(mut self, params: &[Value]) -> CodeGen<'t> {
        self.params = Some(params.to_vec());
        self
    }

    /// `double` (the default, the tape's numbers bit for bit) or `float`.
    pub fn precision(mut self, precision: Precision) -> CodeGen<'t> {
        self.precision = precision;
        self
    }

    /// Writes the header and the source.
    ///
    /// # Errors
    ///
    /// - [`Error::CannotEmit`] if the tape has a custom op ([`Value::custom`]): its
    ///   closures are Rust;
    /// - [`Error::ConstantTarget`] if the C takes inputs and a loss of the graph took
    ///   its target as a number (see [`loss`](crate::loss): the C would keep the
    ///   compiled sample's target for every sample);
    /// - [`Error::NotOnTape`] if an input or parameter is not a leaf of the tape;
    /// - [`Error::InvalidInput`] if a name is not a C identifier, a leaf is named twice
    ///   (in two groups, or as an input and a parameter), or a parameter needs no
    ///   gradient ([`Value::no_grad`]).
    ///
    /// ```
    /// use micrograd::codegen::CodeGen;
    /// use micrograd::{tape::Tape, Error, Value};
    /// let x = Value::new(1.0);
    /// let y = Value::custom("twice", &[&x], |p| 2.0 * p[0], |_, _, d| d[0] = 2.0);
    /// let tape = Tape::compile(&y)?;
    /// let err = CodeGen::new(&tape, "twice").generate().unwrap_err();
    /// assert!(matches!(err, Error::CannotEmit { .. }), "{err}");
    /// assert!(err.to_string().contains("`twice`"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn generate(&self) -> Result<CCode, Error> {
        let listing = self.tape.program().listing();
        for (i, ins) in listing.inner.iter().enumerate() {
            if let Instruction::Custom(op) = ins {
                let k = listing.leaves + i;
                let label = listing.labels.iter().find(|(j, _)| *j == k);
                return Err(Error::CannotEmit {
                    op: (*op).to_owned(),
                    label: label.map(|(_, l)| l.clone()),
                });
            }
        }
        identifier("the C name", &self.name)?;
        // (The C is fed sample after sample: a target kept in the graph would stay the
        // compiled sample's for all of them.)
        if let (false, Some((loss, instead))) =
            (self.inputs.is_empty(), self.tape.program().constant_target)
        {
            return Err(Error::ConstantTarget { loss, instead });
        }
        let roles = self.roles()?;
        let groups: Vec<&str> = self.inputs.iter().map(|(g, _)| g.as_str()).collect();
        let data: Vec<f64> = self.tape.leaves().iter().map(Value::data).collect();
        let program = source::Program::new(&listing, &roles, &groups, &data, self.precision);
        Ok(CCode {
            name: self.name.clone(),
            header: header::header(&program, &self.name),
            source: program.source(&self.name),
        })
    }

    /// Each leaf's [`Role`], from the inputs and parameters named.
    fn roles(&self) -> Result<Vec<Role>, Error> {
        let leaves = self.tape.leaves();
        let index: AddressMap<usize> = (leaves.iter().enumerate())
            .map(|(i, v)| (v.address(), i))
            .collect();
        let find = |v: &Value| {
            index
                .get(&v.address())
                .copied()
                .ok_or(Error::NotOnTape { label: v.label() })
        };
        let mut roles = vec![Role::Const; leaves.len()];
        let mut named: HashMap<usize, String> = HashMap::new();
        let mut claim = |k: usize, what: String, roles: &mut Vec<Role>, role: Role| {
            if let Some(before) = named.insert(k, what.clone()) {
                return Err(Error::InvalidInput(format!(
                    "leaf {k} of the tape{} is both {before} and {what}: name each leaf once",
                    leaves[k]
                        .label()
                        .map_or_else(String::new, |l| format!(" (label {l:?})"))
                )));
            }
            roles[k] = role;
            Ok(())
        };
        for (group, (name, values)) in self.inputs.iter().enumerate() {
            identifier("an input group's name", name)?;
            // (Its length is `NAME_<GROUP>_LEN` in the header.)
            let upper = name.to_uppercase();
            let clash = ["SGD_BUFFER", "BUFFER"].contains(&upper.as_str())
                || self.inputs[..group]
                    .iter()
                    .any(|(g, _)| g.to_uppercase() == upper);
            if clash {
                return Err(Error::InvalidInput(format!(
                    "input group {name:?}: its length would be {}_{upper}_LEN in the header, \
                     which another name there already is; rename the group",
                    self.name.to_uppercase()
                )));
            }
            for (pos, v) in values.iter().enumerate() {
                let what = format!("input {name}[{pos}]");
                claim(find(v)?, what, &mut roles, Role::Input { group, pos })?;
            }
        }
        match &self.params {
            Some(params) => {
                for (pos, v) in params.iter().enumerate() {
                    if !v.requires_grad() {
                        return Err(Error::InvalidInput(format!(
                            "parameter {pos}{} needs no gradient (Value::no_grad), so it cannot \
                             be trained: leave it out of the parameters",
                            v.label()
                                .map_or_else(String::new, |l| format!(" (label {l:?})"))
                        )));
                    }
                    claim(
                        find(v)?,
                        format!("parameter {pos}"),
                        &mut roles,
                        Role::Param(pos),
                    )?;
                }
            }
            None => {
                let mut pos = 0;
                for (k, leaf) in leaves.iter().enumerate() {
                    if roles[k] == Role::Const && !leaf.node().hidden && leaf.requires_grad() {
                        roles[k] = Role::Param(pos);
                        pos += 1;
                    }
                }
            }
        }
        Ok(roles)
    }
}

impl CCode {
    /// Writes `name.h` and `name.c` into the folder `dir` (which must exist); returns
    /// their paths.
    ///
    /// # Errors
    ///
    /// [`Error::Write`] naming the file that could not be written.
    pub fn write_to(&self, dir: &Path) -> Result<[PathBuf; 2], Error> {
        let write = |ext: &str, text: &str| {
            let path = dir.join(format!("{}.{ext}", self.name));
            std::fs::write(&path, text).map_err(|source| Error::Write {
                path: path.clone(),
                source,
            })?;
            Ok(path)
        };
        Ok([write("h", &self.header)?, write("c", &self.source)?])
    }
}

/// Checks that `name` is a C identifier (letters, digits, `_`, not starting with a
/// digit) that no C keyword or reserved name clashes with.
fn identifier(what: &str, name: &str) -> Result<(), Error> {
    let mut chars = name.chars();
    let starts = chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_');
    let ok = starts && chars.all(|c| c.is_ascii_alphanumeric() || c == '_');
    if ok && !name.starts_with("__") {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "{what} {name:?} is not a C identifier: use letters, digits and `_`, starting with \
         a letter (it names the C's files and functions)"
    )))
}

/// Runs the example of `docs/codegen.md` as a doctest, so the guide stays correct.
#[cfg(doctest)]
#[doc = include_str!("../../docs/codegen.md")]
struct CodegenGuide;
