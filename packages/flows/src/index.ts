export { passwordLogin, type PasswordLoginInput, type FlowOptions } from "./login/password-login";
export { LoginFlowError } from "./flow-error";
export { Deadline } from "./deadline";
