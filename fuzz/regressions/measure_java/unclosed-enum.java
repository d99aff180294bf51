enum E { A { void f() {} }, B;
  abstract void g();
  int x = new Object() { void h() {} ;
@interface N { String v() default ; }
