@a(class { @b(class { @c m() {} }) n() {} })
export class X {
  @d
