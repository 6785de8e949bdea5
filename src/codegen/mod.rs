//! C from a compiled [`Tape`]: train on a device with no Rust, no allocator, no runtime.
//!
//! [`CodeGen`] writes a tape's program as C99: a header (`name.h`: the functions and the
//! layout of one buffer of numbers) and a source file (`name.c`: forward, backward, the
//! SGD and Adam updates, and the parameters' values when the C was generated). The
//! caller owns the buffer (`static double buf[NAME_BUFFER_LEN];`: no `malloc`), and the C
//! needs nothing of the C library beyond `math.h`. [`CodeGen::inference`] writes the
//! forward pass of the outputs alone instead, its weights `const` (in a
//! microcontroller's flash) and its buffer only the inputs and the activations alive at
//! once: a trained MNIST network in 3.3 KB of RAM.
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
//! | `ops.rs` | numbers, math calls and static functions as C of one precision (each op's own C is written with its rule, in `src/rules/` or `src/ops/`) |
//! | `source.rs` | the C source: forward, backward, updates |
//! | `inference.rs` | the inference C ([`CodeGen::inference`]): its header and source |
//! | `header.rs` | the C header |

mod header;
mod inference;
mod listing;
mod ops;
mod plan;
mod source;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::files::Prepared;

pub use ops::Precision;

/// The flags to compile the generated C with (GCC's and Clang's spelling): C99 with
/// optimisation, no contraction of `a * b + c` into one FMA (which rounds once instead of
/// twice, and so changes the numbers; fast-math, which reorders them, is left off too),
/// libm's functions that are not exactly rounded kept calls (`-fno-builtin-tanh`, ...:
/// else the compiler works out such a call on a constant, a weight of inference C, with
/// its own rounding, an ulp from libm's, the tape's), and every warning an error: the
/// generated C compiles without one.
///
/// ```
/// use micrograd::codegen::C_FLAGS;
/// assert!(C_FLAGS.contains(&"-ffp-contract=off"));
/// assert!(C_FLAGS.contains(&"-fno-builtin-tanh"));
/// // e.g. std::process::Command::new("cc").args(C_FLAGS).args(["-c", "fit.c"])
/// ```
pub const C_FLAGS: &[&str] = &[
    "-std=c99",
    "-O2",
    "-ffp-contract=off",
    "-fno-builtin-atan",
    "-fno-builtin-cos",
    "-fno-builtin-exp",
    "-fno-builtin-log",
    "-fno-builtin-log1p",
    "-fno-builtin-pow",
    "-fno-builtin-sin",
    "-fno-builtin-tanh",
    "-Wall",
    "-Wextra",
    "-Werror",
];

/// The libm functions [`C_FLAGS`] keeps calls (`-fno-builtin-<f>`), for the generated
/// C's comments: `atan cos exp ...`.
fn kept_calls() -> String {
    let kept: Vec<&str> = (C_FLAGS.iter())
        .filter_map(|f| f.strip_prefix("-fno-builtin-"))
        .collect();
    kept.join(" ")
}

use crate::address::AddressMap;
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
    inference: bool,
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
    /// `name` must be a name the C can take, capitals allowed (checked by
    /// [`generate`](CodeGen::generate)).
    pub fn new(tape: &'t Tape, name: &str) -> CodeGen<'t> {
        CodeGen {
            tape,
            name: name.to_owned(),
            inputs: Vec::new(),
            params: None,
            precision: Precision::F64,
            inference: false,
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

    /// Inference only: C that computes the tape's outputs (those named at
    /// [`Tape::compile_with_outputs`], or its root if none were) from the inputs, and
    /// nothing else: no gradients, no updates.
    ///
    /// The parameters and constants are `static const` (a microcontroller keeps them in
    /// flash, once); the caller's buffer (`NAME_BUFFER_LEN` numbers) holds the inputs the
    /// outputs depend on and the values of the nodes alive at once, a node's place taken
    /// by another once nothing reads it: MNIST's 784-32-10 network needs 784 + 32 + 10
    /// numbers. `name_set_<group>`, `name_forward` and `name_outputs` are the training
    /// C's; there is no `init`. The numbers are the tape's, bit for bit in `double`
    /// (see [`generate`](CodeGen::generate)).
    ///
    /// ```
    /// use micrograd::codegen::{CodeGen, Precision};
    /// use micrograd::{prelude::*, random::PythonRandom, tape::Tape};
    /// let model = MLP::new(4, &[8, 3], &mut PythonRandom::seed(1));
    /// let x: Vec<Value> = (0..4).map(|_| Value::new(0.0)).collect();
    /// let logits = model.forward(&x)?;
    /// // (The root is what training would minimise; the outputs must be under it.)
    /// let tape = Tape::compile_with_outputs(&logits.iter().sum(), &logits)?;
    /// let c = CodeGen::new(&tape, "iris")
    ///     .input("x", &x)
    ///     .precision(Precision::F32)
    ///     .inference()
    ///     .generate()?;
    /// // 4 inputs, then 8 hidden values and 3 outputs
    /// assert!(c.header.contains("#define IRIS_BUFFER_LEN 15 "));
    /// assert!(c.source.contains("static const real weights[68]")); // 67 parameters and a 1
    /// assert!(!c.source.contains("backward"));
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn inference(mut self) -> CodeGen<'t> {
        self.inference = true;
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
    /// - [`Error::InvalidInput`] if a name is not one the C can take (ASCII letters and
    ///   digits, starting with a letter, in words joined by single `_`; the C's name not
    ///   `dot` nor `layer` and digits, its static functions' prefixes; no input group `params`), a
    ///   leaf is named twice
    ///   (in two groups, or as an input and a parameter), or a parameter needs no
    ///   gradient ([`Value::no_grad`]) in training C.
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
        c_name(&self.name)?;
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
        let (header, source) = match self.inference {
            true => program.inference(&self.name),
            false => (
                header::header(&program, &self.name),
                program.source(&self.name),
            ),
        };
        Ok(CCode {
            name: self.name.clone(),
            header,
            source,
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
            if name == "params" {
                return Err(Error::InvalidInput(
                    "input group \"params\": its setter would be NAME_set_params, the \
                     parameters' setter; any other name of letters and digits in words joined \
                     by single `_` works"
                        .to_owned(),
                ));
            }
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
                    // (Inference trains nothing: a frozen parameter is one more constant.)
                    if !v.requires_grad() && !self.inference {
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
                let hidden = &self.tape.program().hidden;
                for (k, leaf) in leaves.iter().enumerate() {
                    if roles[k] == Role::Const && !hidden[k] && leaf.requires_grad() {
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
    /// Writes `name.h` and `name.c` into the folder `dir`, creating it (and its parents)
    /// if needed; returns their paths.
    ///
    /// Both files are first written in full beside their places (each under a new,
    /// unpredictable name, synced), and only then renamed over them, the `.h` first.
    /// So a failure while writing (a full disk, `name.c` a directory, ...) leaves both
    /// old files as they were, never a new header beside an old source; and a crash
    /// leaves each file old or new, never half of one. The two renames are not one
    /// step: a crash between them, or a rename that fails after the other succeeded,
    /// leaves the new `.h` beside the old `.c`.
    ///
    /// # Errors
    ///
    /// [`Error::Write`] naming the folder or the file that could not be written.
    ///
    /// ```
    /// # use micrograd::{codegen::CodeGen, tape::Tape, Value};
    /// let x = Value::new(1.0);
    /// let code = CodeGen::new(&Tape::compile(&(&x * 2.0))?, "twice").generate()?;
    /// let dir = std::env::temp_dir().join(format!("write_to-{}/c", std::process::id()));
    /// let [h, c] = code.write_to(&dir)?;
    /// assert!(h.ends_with("twice.h") && c.is_file());
    /// # std::fs::remove_dir_all(dir.parent().unwrap()).ok();
    /// # Ok::<(), micrograd::Error>(())
    /// ```
    pub fn write_to(&self, dir: &Path) -> Result<[PathBuf; 2], Error> {
        std::fs::create_dir_all(dir).map_err(|source| Error::Write {
            path: dir.to_path_buf(),
            source,
        })?;
        let [h, c] = ["h", "c"].map(|ext| dir.join(format!("{}.{ext}", self.name)));
        let prepare =
            |path: &Path, text: &str| Prepared::write(path, |out| out.write_all(text.as_bytes()));
        // Both written before either is renamed: if the `.c` fails, dropping the
        // prepared `.h` removes its temporary file and the old `.h` stays.
        let header = prepare(&h, &self.header)?;
        let source = prepare(&c, &self.source)?;
        header.commit()?;
        source.commit()?;
        Ok([h, c])
    }
}

/// Checks that `name` is one the C can take: letters and digits in words joined by
/// single underscores (`mnist`, `MyNet`, `iris_2`), so that `NAME_forward`,
/// `NAME_real` and `NAME_H` are identifiers no C or C++ compiler reserves (none starts
/// with `_` or holds `__`). `what` says which name it is, for the error.
fn identifier(what: &str, name: &str) -> Result<(), Error> {
    let word = |w: &str| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphanumeric());
    if name.split('_').all(word) && name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Ok(());
    }
    Err(Error::InvalidInput(format!(
        "{what} {name:?} is not a C identifier the generated C can take: use ASCII letters and digits, starting with a \
         letter, in words joined by single `_` (`mnist`, `MyNet`, `iris_2`; not `_x`, `x_`, \
         `a__b`, `my-net`)"
    )))
}

/// Checks that the C's name is an [`identifier`] whose functions are not the C's own
/// static functions: `NAME_backward` would be the function `dot_backward` for `dot`, and
/// `layer16_backward` for `layer16`.
fn c_name(name: &str) -> Result<(), Error> {
    identifier("the C name", name)?;
    let layer = name
        .strip_prefix("layer")
        .is_some_and(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit()));
    if name == "dot" || layer {
        return Err(Error::InvalidInput(format!(
            "the C name {name:?} would give functions the names of the C's own static functions \
             (`dot`, `dot_backward`, `layer16`, `layer16_backward`, ...): any other name \
             of letters and digits in words joined by single `_` works"
        )));
    }
    Ok(())
}

/// Runs the example of `docs/codegen.md` as a doctest, so the guide stays correct.
#[cfg(doctest)]
#[doc = include_str!("../../docs/codegen.md")]
struct CodegenGuide;
