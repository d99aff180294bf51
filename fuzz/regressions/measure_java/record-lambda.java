record R<T>(T t) { R { this(
  class L { Runnable r = () -> { class M {} }; }
