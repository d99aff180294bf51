export const Menu = React.memo(<T,>(p: T) => {
  const x = <div onClick={function h() {}} />
