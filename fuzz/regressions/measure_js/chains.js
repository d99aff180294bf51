a = b = c = function () {};
module.exports = { x: { y: () => {} }, [k]: class {
